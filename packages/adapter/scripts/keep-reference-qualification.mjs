// What every record-reference-qualification script shares: run the negative suite against one
// adapter and keep the record it writes as the repository's reference record
// (qualification/records/), replacing the previous one of that adapter.
import { fileURLToPath } from 'node:url';
import { keepReferenceRecord } from '../../records/dist/index.js';
import { runNegativeSuite } from '../../run/dist/index.js';

const RECORDS_DIRECTORY = fileURLToPath(new URL('../../../qualification/records/', import.meta.url));

/** Runs the suite; prints the kept record's path, or says that `what` did not pass and exits 1. */
export async function keepReferenceQualification({ executable, driver, what }) {
  const answer = await runNegativeSuite({ executable, driver });
  if (answer.kind !== 'ran') throw new Error(answer.message);
  const kept = await keepReferenceRecord(answer.report, RECORDS_DIRECTORY);
  if (kept.kind !== 'kept') {
    process.stderr.write(`${what} did not pass: ${kept.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${kept.path}\n`);
}
