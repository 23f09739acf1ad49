// Qualifies the pair — the bundled Claude Code adapter fronting the pinned claude — live through the
// model double, and keeps the record it writes as the repository's reference record
// (qualification/records/claude-code-*.json), replacing the previous one. Run after `npm run build`,
// whenever the adapter, the pinned claude or the suite changes (a test says when it is stale):
//   node packages/adapter-claude-code/scripts/record-reference-qualification.mjs
import { keepReferenceQualification } from '../../adapter/scripts/keep-reference-qualification.mjs';
import { claudeCodeAdapterPath, claudeCodeSuiteDriver, pinnedClaudePath } from '../dist/index.js';

await keepReferenceQualification({ executable: claudeCodeAdapterPath(), driver: claudeCodeSuiteDriver({ provider: pinnedClaudePath() }), what: 'the pair' });
