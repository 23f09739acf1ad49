// Runs the negative suite against the shipped fixture adapter and keeps the record it writes as the
// repository's reference record (qualification/records/), replacing the previous fixture record. Run
// after `tsc -b`, whenever the fixture adapter or the suite changes (a test says when it is stale):
//   node packages/adapter/scripts/record-reference-qualification.mjs
import { fixtureAdapterPath, fixtureDriver } from '../dist/index.js';
import { keepReferenceQualification } from './keep-reference-qualification.mjs';

await keepReferenceQualification({ executable: fixtureAdapterPath(), driver: fixtureDriver, what: 'the fixture' });
