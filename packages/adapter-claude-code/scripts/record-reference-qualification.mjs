// Qualifies the pair — the bundled Claude Code adapter fronting the pinned claude — live through the
// model double, and keeps the record it writes as the repository's reference record
// (qualification/records/claude-code-*.json), replacing the previous one. Run after `npm run build`,
// whenever the adapter, the pinned claude or the suite changes (a test says when it is stale):
//   node packages/adapter-claude-code/scripts/record-reference-qualification.mjs
import { copyFile, mkdtemp, readdir, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNegativeSuite, writeQualificationRecord } from '@statecraft/adapter';
import { claudeCodeAdapterPath, claudeCodeSuiteDriver, pinnedClaudePath } from '../dist/index.js';

const recordsDir = fileURLToPath(new URL('../../../qualification/records/', import.meta.url));

const answer = await runNegativeSuite({ executable: claudeCodeAdapterPath(), driver: claudeCodeSuiteDriver({ provider: pinnedClaudePath() }) });
if (answer.kind !== 'ran') throw new Error(answer.message);
const home = await mkdtemp(join(tmpdir(), 'statecraft-reference-'));
try {
  const written = await writeQualificationRecord(home, answer.report);
  if (written.kind !== 'written') {
    process.stderr.write(`the pair did not pass: ${written.message}\n`);
    process.exit(1);
  }
  for (const name of await readdir(recordsDir).catch(() => [])) {
    if (name.startsWith('claude-code-')) await unlink(join(recordsDir, name));
  }
  await copyFile(written.path, join(recordsDir, `${written.record.id}.json`));
  process.stdout.write(`${join(recordsDir, `${written.record.id}.json`)}\n`);
} finally {
  await rm(home, { recursive: true, force: true });
}
