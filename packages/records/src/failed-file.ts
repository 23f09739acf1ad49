import { wordsAfterPath } from '@statecraft/adapter';

/** A step of writing one file that failed: carries the file, so the failure names it (exit 4). */
class FileStepFailure extends Error {
  readonly path: string;
  constructor(path: string, cause: unknown) {
    // A failure that names the file already (the chain's own refusals do) is not named twice.
    super(`${path}: ${wordsAfterPath(cause, path) ?? (cause instanceof Error ? cause.message : String(cause))}`, { cause });
    this.name = 'FileStepFailure';
    this.path = path;
  }
}

/**
 * Runs one step that writes `path`; a rejection names the file. A write to a descriptor fails
 * with the system's words only ("ENOSPC: no space left on device, write"), not the file's name.
 */
export async function writingFile<T>(path: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw error instanceof FileStepFailure ? error : new FileStepFailure(path, error);
  }
}

/** The file a failure names: the step's file, or the path the system reported, or the fallback. */
export function failedPath(error: unknown, fallback: string): string {
  if (error instanceof FileStepFailure) return error.path;
  const reported = (error as NodeJS.ErrnoException | undefined)?.path;
  return typeof reported === 'string' ? reported : fallback;
}
