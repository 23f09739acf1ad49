import { copyFile, mkdtemp, readdir, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SuiteReport } from '@statecraft/adapter';
import { writeQualificationRecord, type WriteQualificationAnswer } from './qualification-store.js';

/**
 * Keeps a full pass as a repository's reference record (`qualification/records/`): written once
 * the ordinary way, then copied beside the others, replacing the previous reference record of the
 * same adapter name (a test per adapter says when the kept one is stale).
 */
export async function keepReferenceRecord(
  report: SuiteReport,
  recordsDir: string,
): Promise<{ kind: 'kept'; path: string } | Extract<WriteQualificationAnswer, { kind: 'refused' }>> {
  const home = await mkdtemp(join(tmpdir(), 'statecraft-reference-'));
  try {
    const written = await writeQualificationRecord(home, report);
    if (written.kind !== 'written') return written;
    for (const name of await readdir(recordsDir).catch(() => [])) {
      if (name.startsWith(`${report.adapter.name}-`)) await unlink(join(recordsDir, name));
    }
    const path = join(recordsDir, `${written.record.id}.json`);
    await copyFile(written.path, path);
    return { kind: 'kept', path };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
