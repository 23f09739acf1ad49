import type { ExitCode } from './exit-codes.js';
import { jsonInParts } from './json-in-parts.js';
import { writeHumanLines, type HumanLines } from './render/human-lines.js';

/**
 * What every verb returns: the value (rendered as JSON with `--json`, or as text), and the
 * exit code. Human and JSON output render the same value (R11).
 */
export interface Answer<T> {
  value: T;
  exitCode: ExitCode;
  /** Renders the value for a person, line by line (human-lines.ts); the JSON rendering is always `JSON.stringify(value)`. */
  human: (value: T) => HumanLines;
}

/** Prints an answer and sets the process's exit code. */
export function emit<T>(answer: Answer<T>, json: boolean): void {
  if (json) printJson(answer.value);
  else writeHumanLines(process.stdout, answer.human(answer.value));
  process.exitCode = answer.exitCode;
}

/** One JSON document on stdout: what `--json` promises, whatever the verb and however it ended. */
export function printJson(value: unknown): void {
  // In parts: a long list's document is never held whole (json-in-parts.ts); stdout is
  // synchronous for files and pipes, so the parts follow each other as written.
  for (const part of jsonInParts(value)) process.stdout.write(part);
}
