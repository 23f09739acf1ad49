import { EXIT, type ExitCode } from './exit-codes.js';

/** An error the CLI turns into a message and an exit code; `cause` is kept. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  /** What the operator can do next, in one sentence. */
  readonly hint: string | undefined;
  constructor(message: string, exitCode: ExitCode, options: { cause?: unknown; hint?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
    this.exitCode = exitCode;
    this.hint = options.hint;
  }
}

/** Bad arguments: exit 3. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.usage, hint === undefined ? {} : { hint });
    this.name = 'UsageError';
  }
}

/** An i/o failure, naming the path: exit 4. */
export class IoFailure extends CliError {
  readonly path: string;
  constructor(path: string, message: string, cause?: unknown) {
    super(`${path}: ${message}`, EXIT.failed, cause === undefined ? {} : { cause });
    this.name = 'IoFailure';
    this.path = path;
  }
}
