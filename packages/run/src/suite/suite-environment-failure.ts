/**
 * A failure of the machine the suite runs on (a full or read-only product home), met while a case
 * sets itself up: it says nothing of the adapter, so it ends the suite as an i/o failure naming the
 * path (exit 4) instead of failing the case (R4). `code` and `path` are a system error's, so the
 * command line names the file.
 */
export class SuiteEnvironmentFailure extends Error {
  readonly path: string;
  readonly code: string;
  constructor(path: string, what: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code ?? 'EIO';
    super(`${path}: ${what} (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
    this.name = 'SuiteEnvironmentFailure';
    this.path = path;
    this.code = code;
  }
}
