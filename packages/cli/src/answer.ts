import type { ExitCode } from './exit-codes.js';

/**
 * What every verb returns: the value (rendered as JSON with `--json`, or as text), and the
 * exit code. Human and JSON output render the same value (R11).
 */
export interface Answer<T> {
  value: T;
  exitCode: ExitCode;
  /** Renders the value for a person; the JSON rendering is always `JSON.stringify(value)`. */
  human: (value: T) => string;
}

/** Prints an answer and sets the process's exit code. */
export function emit<T>(answer: Answer<T>, json: boolean): void {
  const text = json ? JSON.stringify(answer.value, null, 2) : answer.human(answer.value);
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  process.exitCode = answer.exitCode;
}
