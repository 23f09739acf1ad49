import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The per-attempt TMPDIR (R5.5): private (mkdtemp makes it 0700), outside the workspace and
 * outside the product home, so the child's scratch files neither land in the worktree nor beside
 * the records. Made synchronously: the boundary's probe is spawned right after it, beside git's
 * checkout of the workspace, and an await would wait for git's spawn to hand the loop back.
 */
export function createAttemptTemporaryDirectory(runId: string, attempt: number): string {
  return mkdtempSync(join(tmpdir(), `statecraft-${runId}-${attempt}-`));
}

/** Removed after the attempt; a failure is evidence, and changes no outcome. */
export async function removeAttemptTemporaryDirectory(path: string): Promise<'removed' | { notRemoved: string }> {
  try {
    await rm(path, { recursive: true, force: true, maxRetries: 2 });
    return 'removed';
  } catch (error) {
    return { notRemoved: `${path}: ${(error as Error).message}` };
  }
}
