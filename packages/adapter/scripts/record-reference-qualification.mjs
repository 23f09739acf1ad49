// Runs the negative suite against the shipped fixture adapter and keeps the record it writes as the
// repository's reference record (qualification/records/), replacing the previous fixture record. Run
// after `tsc -b`, whenever the fixture adapter or the suite changes (a test says when it is stale):
//   node packages/adapter/scripts/record-reference-qualification.mjs
import { fileURLToPath } from 'node:url';
import { fixtureAdapterPath, fixtureDriver, keepReferenceRecord, runNegativeSuite } from '../dist/index.js';

const answer = await runNegativeSuite({ executable: fixtureAdapterPath(), driver: fixtureDriver });
if (answer.kind !== 'ran') throw new Error(answer.message);
const kept = await keepReferenceRecord(answer.report, fileURLToPath(new URL('../../../qualification/records/', import.meta.url)));
if (kept.kind !== 'kept') {
  process.stderr.write(`the fixture did not pass: ${kept.message}\n`);
  process.exit(1);
}
process.stdout.write(`${kept.path}\n`);
