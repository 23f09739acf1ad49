import type { ExitCode } from './exit-codes.js';
import { jsonInParts } from './json-in-parts.js';
import { terminalSafeText } from './render/terminal-safe-text.js';

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
  if (json) printJson(answer.value);
  else printText(answer.human(answer.value));
  process.exitCode = answer.exitCode;
}

/** One JSON document on stdout: what `--json` promises, whatever the verb and however it ended. */
export function printJson(value: unknown): void {
  // In parts: a long list's document is never held whole (json-in-parts.ts); stdout is
  // synchronous for files and pipes, so the parts follow each other as written.
  for (const part of jsonInParts(value)) process.stdout.write(part);
}

/** A rendering for a person: any control character but its own line breaks is shown, never obeyed (terminal-safe-text.ts). */
function printText(text: string): void {
  const safe = terminalSafeText(text);
  process.stdout.write(safe.endsWith('\n') ? safe : `${safe}\n`);
}
