import { fitToWidth } from '../render/terminal-width.js';
import {
  describeClassification,
  describeFieldDisagreements,
  sameClassification,
  type AttemptAccount,
  type AttemptList,
  type Finding,
  type OutcomeCheck,
  type RecordDisagreement,
} from '@statecraft/records';
import type { MissingCredentialDetail, RunFailure, RunRefusal } from '@statecraft/run';
import { describeCoverage, readRecordedCoverage } from '@statecraft/adapter';
import { requiredNotApplied } from '@statecraft/records';
import { renderAcceptance } from './accept-render.js';
import { describeErrorCodes, type ProviderError } from './provider-error.js';
import { describeCandidateChanges, describeCandidateMaker } from '../render/describe-candidate.js';
import { describePlacedName } from '../render/placed-name.js';
import type { HumanLines, HumanSpans } from '../render/human-lines.js';

/** Where a row's value starts (`  provider claim  …`): a row of an adapter's words wider than a terminal goes on under it. */
const VALUE_COLUMN = 18;

const short = (commit: string): string => (commit === 'not-recorded' ? commit : commit.slice(0, 12));

function describeCost(cost: AttemptAccount['cost']): string {
  return typeof cost === 'number' ? `$${cost.toFixed(4)}` : cost;
}

function describeStream(streamError: AttemptAccount['streamError']): string {
  if (streamError === 'none' || streamError === 'not-recorded') return streamError;
  if (streamError.kind === 'malformed') return `malformed at line ${streamError.lineNumber}: ${streamError.reason}`;
  if (streamError.kind === 'read-failure') return `read failure at line ${streamError.lineNumber}: ${streamError.reason}`;
  return 'no result: the stream ended without a terminal event';
}
/**
 * The recorded coverage with both limits, whatever the verdict (R9.3); a record written before
 * coverage existed reads `not-checked`, never as covered.
 */
function describeRecordedCoverage(coverage: unknown): string[] {
  const reading = readRecordedCoverage(coverage);
  if (reading.kind === 'malformed') {
    return [`  coverage        malformed in the record (${reading.error.issues.map((issue) => issue.message).join('; ')}); not read as covered`];
  }
  return describeCoverage(reading.coverage).map((line) => `  ${line}`);
}

function describeClaim(claim: AttemptAccount['providerClaim']): string {
  if (claim === 'not-recorded') return claim;
  return `${claim.status} (error: ${String(claim.isError)}, reason: ${claim.reason}) — a claim, not the outcome`;
}

type ExcerptEntry = Exclude<AttemptAccount['refusals'], 'not-recorded'>[number];

/** One refusal of the excerpt: the tool and the provider's record, or the start of a line too long to keep. */
function describeRefusal(refusal: ExcerptEntry): string {
  if ('cut' in refusal) return `line ${refusal.seq + 1}, ${refusal.cut.lineBytes} bytes, cut: ${refusal.cut.head}…`;
  return `${refusal.tool}: ${JSON.stringify(refusal.verbatim)}`;
}

/**
 * The count, and where the rest are when the record keeps only the first few: every
 * refusal is in the stream kept beside the chain.
 */
function describeRefusalCount(account: AttemptAccount): string {
  const count = account.refusalCount;
  if (count === 'not-recorded' || account.refusals === 'not-recorded' || account.refusals.length >= count) return String(count);
  const stream = account.artifacts.stream === 'not-recorded' ? 'the stream (not kept)' : account.artifacts.stream.path;
  return `${count} refusals; first ${account.refusals.length} shown; all in ${stream}`;
}

/** The provider's own words for its error, whole as the answer keeps them; the writer keeps them on their line. */
function describeProviderError(error: ProviderError | undefined): readonly (string | HumanSpans)[] {
  if (error === undefined || error === 'none') return [];
  return fitToWidth([`  provider error  ${error.text}${error.cut ? ' …' : ''}${describeErrorCodes(error)}`], VALUE_COLUMN);
}

function list(items: readonly string[]): string {
  return items.length === 0 ? 'none' : items.join(', ');
}

/** Each kept file that is not the one the chain sealed, and an outcome its kept stream does not give: findings (R8.4, R8.2). */
function describeEvidence(account: AttemptAccount & { artifactCheck?: Record<string, string>; outcomeCheck?: OutcomeCheck }): string[] {
  const lines: string[] = [];
  for (const [name, state] of Object.entries(account.artifactCheck ?? {})) {
    const artifact = account.artifacts[name as keyof AttemptAccount['artifacts']];
    if (artifact === 'not-recorded' || (state !== 'altered' && state !== 'missing')) continue;
    const why = state === 'altered' ? 'its bytes no longer have the digest the chain holds' : 'it is gone or unreadable; the chain holds its digest';
    lines.push(`  finding: ${artifact.path}: ${state} (${why})`);
  }
  const check = account.outcomeCheck;
  if (check === undefined) return lines;
  if (check.state === 'disagrees') {
    if (!sameClassification(check.recorded, check.fromStream)) {
      lines.push(
        `  finding: the recorded outcome disagrees with its kept stream: recorded ${describeClassification(check.recorded)}; the stream, classified again, reads ${describeClassification(check.fromStream)}`,
      );
    }
    if (check.fields.length > 0) {
      lines.push(
        `  finding: the outcome record holds what its kept stream, read again, does not give: ${describeFieldDisagreements(check.fields, 'the stream')}`,
      );
    }
  }
  lines.push(
    `outcome check     ${check.state === 'not-checked' ? `not checked (${check.reason})` : check.state === 'agrees' ? 'agrees with the kept stream, classified again' : 'disagrees with the kept stream'}`,
  );
  return lines;
}

/**
 * Each record whose copy of a kept, verified file is not what the file holds: a finding, worded as
 * doctor words it (R8.4), with where to look next: a record rewritten once may not be the only one.
 */
function describeRecordDisagreements(account: AttemptAccount & { recordDisagreements?: readonly RecordDisagreement[] }): string[] {
  const found = account.recordDisagreements;
  if (found === undefined) return [];
  if (found.length === 0) return ['records check     the intent and outcome agree with the kept request and result they copy (where each digest verifies)'];
  return [
    ...found.map(
      ({ record, line, file, fields }) =>
        `  finding: the ${record} record (${account.records.chain} line ${line}) disagrees with the kept ${file} (digest verified): ${describeFieldDisagreements(fields)}; the record was rewritten after the attempt`,
    ),
    `records check     disagree with the kept files they copy (${found.length} finding${found.length === 1 ? '' : 's'}): this account is read from rewritten records; run statecraft doctor to check every chain in the home (it repairs nothing)`,
  ];
}

/**
 * What doctor finds of this attempt's records beyond its files and their copies — evidence named
 * where the attempt does not keep it, an acceptance no judgement wrote as it stands — each a
 * finding, worded as doctor words it.
 */
function describeRecordFindings(account: { recordFindings?: readonly Finding[] }): string[] {
  const found = account.recordFindings ?? [];
  if (found.length === 0) return [];
  return [
    ...found.map((finding) => `  finding: ${finding.kind}: ${finding.message}`),
    `records check     ${found.length} record finding${found.length === 1 ? '' : 's'} above: this account is read from records no run or judgement of this attempt wrote as they stand; run statecraft doctor to check every chain in the home (it repairs nothing)`,
  ];
}

/** What the provider was permitted on its own (`--permissions`). */
function describePermissions(permissions: AttemptAccount['posture']['permissions']): string {
  if (permissions === 'not-recorded') return 'not-recorded (a record made before the permission modes)';
  if (permissions.mode === 'sandboxed') return 'sandboxed: every tool runs in the workspace but the denied';
  return "strict: only allowed tools beyond the provider's own";
}

/** The boundary line(s): `none` is labelled loudly, with what it leaves open (R12). */
function describeBoundary(boundary: AttemptAccount['posture']['boundary']): string[] {
  if (boundary === 'not-recorded') return ['  boundary        not-recorded (a record made before the evidence boundary existed)'];
  if (boundary.mechanism === 'none') {
    return [
      `  boundary        NONE (chosen by ${boundary.chosenBy}): the agent ran with the records in reach`,
      ...boundary.residuals.map((residual) => `    - ${residual.statement}`),
    ];
  }
  const held = boundary.probe.filter((check) => check.held).length;
  return [
    `  boundary        ${boundary.version}, profile ${boundary.profileDigest.slice(0, 19)}…, probe ${held}/${boundary.probe.length} held`,
    ...boundary.residuals.map((residual) => `    - ${residual.statement}`),
  ];
}

/**
 * The human rendering of one attempt: the same value `--json` prints (R11). The adapter's words
 * (its claim, its error, a refused tool, the stream's reason quoting its key) are each kept to the
 * line they belong to by the writer (human-lines.ts).
 */
export function renderAccount(
  account: AttemptAccount & {
    artifactCheck?: Record<string, string>;
    outcomeCheck?: OutcomeCheck;
    headIs?: string;
    recordDisagreements?: readonly RecordDisagreement[];
    recordFindings?: readonly Finding[];
    providerError?: ProviderError | undefined;
  },
): HumanLines {
  const p = account.posture;
  const headline =
    account.state === 'concluded'
      ? `${account.outcome}${account.cause !== 'none' && account.cause !== 'not-recorded' ? ` (${account.cause})` : ''}`
      : account.state === 'running'
        ? 'running: intent recorded, supervisor alive, no outcome yet'
        : 'dangling: intent recorded, no outcome (the supervisor stopped before concluding) — not completed';
  const refusals = account.refusals === 'not-recorded' ? ['not-recorded'] : account.refusals.length === 0 ? ['none'] : account.refusals.map(describeRefusal);
  const names = p.environment.names.map((entry) => describePlacedName(entry, '(redacted)'));
  const lines = [
    `run ${account.runId} attempt ${account.attempt}: ${headline}${account.outcomeFrom !== 'not-recorded' && account.outcomeFrom.record === 'acceptance' ? ` (from the acceptance at line ${account.outcomeFrom.line}; the attempt itself ended ${account.attemptOutcome})` : ''}`,
    `  target          ${account.target}`,
    `  workspace       ${account.workspace} (branch ${account.branch})`,
    `  commits         base ${short(account.baseCommit)} → head ${short(account.headCommit)}${account.workspaceDirty === true ? ' + uncommitted changes' : ''}${account.headIs === 'stale' ? ' (stale: the run branch has moved on)' : ''}`,
    `  candidate       ${describeCandidate(account.candidate)}`,
    ...fitToWidth([`  provider claim  ${describeClaim(account.providerClaim)}`], VALUE_COLUMN),
    ...describeProviderError(account.providerError),
    `  refusals        ${describeRefusalCount(account)}${account.unverifiableRefusalAccount ? ' (unverifiable: structured-refusals degraded)' : ''}`,
    ...fitToWidth(
      refusals.map((line) => `                  ${line}`),
      VALUE_COLUMN,
    ),
    `  cost            ${describeCost(account.cost)}`,
    `  turns           ${String(account.turns)}`,
    `  timed out       ${String(account.timedOut)} (deadline ${account.deadline.milliseconds} ms)`,
    ...fitToWidth([`  stream          ${describeStream(account.streamError)}`], VALUE_COLUMN),
    ...(account.evidence === 'kept' || account.evidence === 'not-recorded'
      ? []
      : account.evidence.notKept.map((failure) => `  not kept        ${failure.message}`)),
    ...(account.adapterError === 'none' || account.adapterError === 'not-recorded'
      ? []
      : fitToWidth([`  adapter error   ${account.adapterError.code}: ${account.adapterError.message}`], VALUE_COLUMN)),
    'posture',
    ...fitToWidth([`  adapter         ${p.adapter.name} ${p.adapter.version} ${p.adapter.digest}`], VALUE_COLUMN),
    `  qualification   ${p.qualification.verdict}: ${p.qualification.reason}`,
    `  capabilities    required ${list(p.capabilities.requested.required)}; preferred ${list(p.capabilities.requested.preferred)}`,
    `                  applied ${p.capabilities.applied === 'not-recorded' ? 'not-recorded' : list(p.capabilities.applied)}; not applied ${list(p.capabilities.notApplied)}; degraded ${list(p.capabilities.degraded)}`,
    ...describeRequiredNotApplied(p.capabilities),
    `  environment     ${p.environment.state}: ${list(names)}`,
    ...(p.environment.absent.length === 0 ? [] : [`                  absent: ${p.environment.absent.map((entry) => entry.name).join(', ')}`]),
    '  residuals',
    ...p.environment.residuals.map((residual) => `    - ${residual.statement}`),
    ...describeBoundary(p.boundary),
    `  permissions     ${describePermissions(p.permissions)}`,
    `  containment     ${p.containment.mechanism}`,
    `  survivors       ${p.survivors === 'not-recorded' ? 'not-recorded' : p.survivors.length === 0 ? 'none' : p.survivors.map((s) => `${s.pid} ${s.command}`).join('; ')}`,
    ...describeRecordedCoverage(p.coverage),
    `records           ${account.records.chain} (intent line ${account.records.intent.line}${account.records.outcome === 'not-recorded' ? ', outcome not-recorded' : `, outcome line ${account.records.outcome.line}`})`,
    ...(account.artifactCheck === undefined
      ? []
      : [
          `artifacts         ${Object.entries(account.artifactCheck)
            .map(([name, state]) => `${name} ${state}`)
            .join(', ')}`,
        ]),
    ...describeEvidence(account),
    ...describeRecordDisagreements(account),
    ...describeRecordFindings(account),
    ...(account.acceptance === 'not-recorded'
      ? [`acceptance: not-recorded — never judged; statecraft accept ${account.target} ${account.runId} --attempt ${account.attempt}`]
      : renderAcceptance(account.acceptance)),
  ];
  return lines;
}

/** From the intent's time to the outcome's, as a person reads it (850ms, 4.2s, 3m07s, 1h02m); `-` with no outcome. */
function describeElapsed(startedAt: string, concludedAt: string): string {
  const ms = concludedAt === 'not-recorded' ? Number.NaN : Date.parse(concludedAt) - Date.parse(startedAt);
  if (!Number.isFinite(ms) || ms < 0) return '-';
  if (ms < 1000) return `${String(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${String(minutes)}m${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}s`;
  return `${String(Math.floor(minutes / 60))}h${String(minutes % 60).padStart(2, '0')}m`;
}

/**
 * What the summary says whole whatever its length, since each is a finding: a kept file altered or
 * missing, an outcome its stream does not give, a record that disagrees, a stream that broke, evidence not kept.
 */
export function accountFindings(
  account: AttemptAccount & {
    artifactCheck?: Record<string, string>;
    outcomeCheck?: OutcomeCheck;
    recordDisagreements?: readonly RecordDisagreement[];
    recordFindings?: readonly Finding[];
  },
): string[] {
  const stream = account.streamError === 'none' || account.streamError === 'not-recorded' ? [] : [`  stream          ${describeStream(account.streamError)}`];
  const notKept =
    account.evidence === 'kept' || account.evidence === 'not-recorded' ? [] : account.evidence.notKept.map((failure) => `  not kept        ${failure.message}`);
  const evidence = describeEvidence(account).filter((line) => line.startsWith('  finding:') || line.includes('disagrees with the kept stream'));
  const records = (account.recordDisagreements ?? []).length === 0 ? [] : describeRecordDisagreements(account);
  return [...stream, ...notKept, ...evidence, ...records, ...describeRecordFindings(account)];
}

export function renderList(value: AttemptList): HumanLines {
  const lines = [`${value.target}: ${value.attempts.length} attempt${value.attempts.length === 1 ? '' : 's'} (${value.chain})`];
  if (value.tornTail !== 'none') lines.push(`  a torn final line of ${value.tornTail.bytes} bytes: the next run truncates it`);
  for (const attempt of value.attempts) {
    const outcome = attempt.state === 'concluded' ? attempt.outcome : attempt.state;
    // Two lines an attempt: what it came to (outcome, time, verdict) first, so rows read apart at a glance.
    lines.push(
      `  ${attempt.runId}  #${attempt.attempt}  ${outcome.padEnd(11)}  ${describeElapsed(attempt.startedAt, attempt.concludedAt).padStart(7)}  verdict ${attempt.acceptance}`,
      `    refusals ${String(attempt.refusalCount)}  cost ${describeCost(attempt.cost)}  ${attempt.adapter} (${attempt.qualification})  ${attempt.startedAt.replace(/\.\d+Z$/, 'Z')}`,
    );
  }
  return lines;
}

export function renderRefusal(refusal: Omit<RunRefusal, 'kind'>): HumanLines {
  if (refusal.reason === 'credential') return renderMissingCredential(refusal.detail as MissingCredentialDetail);
  return [`refused (${refusal.reason}): ${refusal.message}`];
}

/** A missing credential, said as what to do: each way the adapter takes one, and the way past it. */
function renderMissingCredential(detail: MissingCredentialDetail): HumanLines {
  const ways = [
    ...detail.variables.map((name) => `set ${name}`),
    ...detail.files.map((file) => `log in to the provider, so that ${file} exists`),
    'add --allow-missing-credential to start it without one',
  ];
  return [
    `refused: adapter ${detail.adapter} has no credential to run with`,
    ...ways.map((way, index) => `  ${index === 0 ? '' : 'or '}${way}`),
    'nothing was started and nothing recorded',
  ];
}

export function renderFailure(failure: Omit<RunFailure, 'kind' | 'cause'>): HumanLines {
  return [`failed (${failure.stage}): ${failure.path}: ${failure.message}`];
}

/** The candidate (R13.2) as `run` and `run show` say it: what acceptance would judge, or why there is none. */
function describeCandidate(candidate: AttemptAccount['candidate']): string {
  if (candidate === 'not-recorded') return 'not-recorded (only a completed attempt has one)';
  if ('notIdentified' in candidate) return `not identified: ${candidate.notIdentified}`;
  return `${short(candidate.commit)} (${describeCandidateMaker(candidate)}; ${describeCandidateChanges(candidate)})`;
}

/** A required token the init did not apply, said as the finding it is (R2.4). */
function describeRequiredNotApplied(capabilities: AttemptAccount['posture']['capabilities']): string[] {
  const missing = requiredNotApplied(capabilities);
  if (missing.length === 0) return [];
  return [`                  REQUIRED, NOT APPLIED: ${list(missing)} — the attempt ran without ${missing.length === 1 ? 'it' : 'them'} (a finding)`];
}
