import type { SuiteRow } from '@statecraft/adapter';
import type { SuiteContext } from './suite-context.js';
import type { CaseVerdict } from './cases/verdict.js';
import { checkRefusalRetained } from './cases/row-1-refusal-retained.js';
import { checkRequiredTokenRefused } from './cases/row-2-required-token-refused.js';
import { checkHungChildKilled } from './cases/row-3-hung-child-killed.js';
import { checkMalformedStream } from './cases/row-4-malformed-stream.js';
import { checkAbsentCost } from './cases/row-5-absent-cost.js';
import { checkDeclaredTokensHonored } from './cases/row-6-declared-tokens-honored.js';
import { checkRecordsIdentical } from './cases/row-7-records-identical.js';
import { checkCoverageRefused } from './cases/row-8-coverage-refused.js';
import { checkRecordsOutOfReach } from './cases/row-9-records-out-of-reach.js';

/** Each row of the case table and the check that runs it; a row without a check cannot exist. */
export const CASE_CHECKS: Record<SuiteRow, (context: SuiteContext) => Promise<CaseVerdict>> = {
  1: checkRefusalRetained,
  2: checkRequiredTokenRefused,
  3: checkHungChildKilled,
  4: checkMalformedStream,
  5: checkAbsentCost,
  6: checkDeclaredTokensHonored,
  7: checkRecordsIdentical,
  8: checkCoverageRefused,
  9: checkRecordsOutOfReach,
};
