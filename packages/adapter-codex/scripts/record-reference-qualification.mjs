// Qualifies the pair — the bundled Codex adapter fronting the pinned codex — live through the
// Responses-API model double, and keeps the record it writes as the repository's reference record
// (qualification/records/codex-*.json), replacing the previous one. Run after `npm run build`,
// whenever the adapter, the pinned codex or the suite changes (a test says when it is stale):
//   node packages/adapter-codex/scripts/record-reference-qualification.mjs
import { keepReferenceQualification } from '../../adapter/scripts/keep-reference-qualification.mjs';
import { codexAdapterPath, codexSuiteDriver, pinnedCodexPath } from '../dist/index.js';

await keepReferenceQualification({ executable: codexAdapterPath(), driver: codexSuiteDriver({ provider: pinnedCodexPath() }), what: 'the pair' });
