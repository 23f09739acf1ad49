// Qualifies the pair — the bundled Codex adapter fronting the pinned codex — live through the
// Responses-API model double, and keeps the record it writes as the repository's reference record
// (qualification/records/codex-*.json), replacing the previous one. Run after `npm run build`,
// whenever the adapter, the pinned codex or the suite changes (a test says when it is stale):
//   node packages/adapter-codex/scripts/record-reference-qualification.mjs
import { fileURLToPath } from 'node:url';
import { keepReferenceRecord, runNegativeSuite } from '@statecraft/adapter';
import { codexAdapterPath, codexSuiteDriver, pinnedCodexPath } from '../dist/index.js';

const answer = await runNegativeSuite({ executable: codexAdapterPath(), driver: codexSuiteDriver({ provider: pinnedCodexPath() }) });
if (answer.kind !== 'ran') throw new Error(answer.message);
const kept = await keepReferenceRecord(answer.report, fileURLToPath(new URL('../../../qualification/records/', import.meta.url)));
if (kept.kind !== 'kept') {
  process.stderr.write(`the pair did not pass: ${kept.message}\n`);
  process.exit(1);
}
process.stdout.write(`${kept.path}\n`);
