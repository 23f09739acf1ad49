// Qualifies the pair — the bundled Claude Code adapter fronting the pinned claude — live through the
// model double, and keeps the record it writes as the repository's reference record
// (qualification/records/claude-code-*.json), replacing the previous one. Run after `npm run build`,
// whenever the adapter, the pinned claude or the suite changes (a test says when it is stale):
//   node packages/adapter-claude-code/scripts/record-reference-qualification.mjs
import { fileURLToPath } from 'node:url';
import { keepReferenceRecord, runNegativeSuite } from '@statecraft/adapter';
import { claudeCodeAdapterPath, claudeCodeSuiteDriver, pinnedClaudePath } from '../dist/index.js';

const answer = await runNegativeSuite({ executable: claudeCodeAdapterPath(), driver: claudeCodeSuiteDriver({ provider: pinnedClaudePath() }) });
if (answer.kind !== 'ran') throw new Error(answer.message);
const kept = await keepReferenceRecord(answer.report, fileURLToPath(new URL('../../../qualification/records/', import.meta.url)));
if (kept.kind !== 'kept') {
  process.stderr.write(`the pair did not pass: ${kept.message}\n`);
  process.exit(1);
}
process.stdout.write(`${kept.path}\n`);
