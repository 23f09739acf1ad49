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
    // The path is said once, in front, whether or not the message already began with it.
    super(message.startsWith(`${path}: `) ? message : `${path}: ${message}`, EXIT.failed, cause === undefined ? {} : { cause });
    this.name = 'IoFailure';
    this.path = path;
  }
}

/**
 * The one JSON document a verb prints on stdout under `--json` when it does not answer: a refusal
 * (exit 2), a failure (exit 4, naming the path when there is one) or a usage error (exit 3). The
 * member is named after the exit code, as `run --json` names its own refusals and failures (R11).
 */
export type ErrorDocument =
  | { refused: { message: string; next?: string } }
  | { failed: { path: string | null; message: string; next?: string } }
  | { usage: { message: string; next?: string } };

export function errorDocument(error: unknown): ErrorDocument {
  if (!(error instanceof CliError)) {
    return { failed: { path: null, message: `unexpected failure: ${error instanceof Error ? error.message : String(error)}` } };
  }
  const next = error.hint === undefined ? {} : { next: error.hint };
  if (error.exitCode === EXIT.refused) return { refused: { message: error.message.replace(/^refused: /, ''), ...next } };
  if (error.exitCode === EXIT.usage) return { usage: { message: error.message, ...next } };
  return { failed: { path: error instanceof IoFailure ? error.path : null, message: error.message, ...next } };
}

/**
 * What the CLI reports for an error no verb turned into an answer. A system error that names a
 * file (a product home that is a file, read-only or full), itself or as the cause of an error
 * that says what was being done, is an i/o failure naming that file, exit 4, without a stack:
 * the operator has something to fix, not a bug to report. Anything else stays unexpected.
 */
export function asCliError(error: unknown): CliError | undefined {
  if (error instanceof CliError) return error;
  if (!(error instanceof Error)) return undefined;
  const named = namedSystemError(error);
  if (named === undefined) return undefined;
  const said = named.system === error || error.message.includes(named.system.message);
  const message = said ? error.message : `${error.message} (${named.system.message})`;
  return new IoFailure(named.path, message, error);
}

/**
 * The system error in the error or its causes (one with a `code`), and the path that names the
 * file: the outermost one given, since a write through a descriptor fails with the system's words
 * only and the step that wrote it names the file on its own error.
 */
function namedSystemError(error: Error): { system: Error & { code: string }; path: string } | undefined {
  let path: string | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    const failure = current as Partial<NodeJS.ErrnoException>;
    path ??= typeof failure.path === 'string' ? failure.path : undefined;
    if (typeof failure.code === 'string' && path !== undefined) return { system: current as Error & { code: string }, path };
    current = current.cause;
  }
  return undefined;
}
