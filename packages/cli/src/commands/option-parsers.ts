import { open, type FileHandle } from 'node:fs/promises';
import { InvalidArgumentError } from 'commander';
import { UsageError, IoFailure } from '../errors.js';

/**
 * The longest `--deadline` accepted: a year. Longer is a typo, not a plan; and it keeps the
 * request's `deadline.at` a real date (decision 0043).
 */
const LONGEST_DEADLINE_MS = 365 * 24 * 3_600_000;

/** The largest `--max-turns` accepted: far beyond any session, well inside what the request can hold. */
export const MOST_TURNS = 1_000_000;

/** `--deadline` values: `500ms`, `2s`, `30m`, `1h`, or a bare number of seconds; at most {@link LONGEST_DEADLINE_MS}. */
export function parseDuration(option: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (match === null) throw new UsageError(`${option} ${JSON.stringify(text)}: not a duration`, 'write e.g. 90s, 30m or 1h');
  const amount = Number(match[1]);
  const unit = match[2] ?? 's';
  const factor = unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000;
  const milliseconds = Math.round(amount * factor);
  if (milliseconds <= 0) throw new UsageError(`${option} ${JSON.stringify(text)}: must be longer than zero`);
  if (milliseconds > LONGEST_DEADLINE_MS) {
    const hours = LONGEST_DEADLINE_MS / 3_600_000;
    throw new UsageError(
      `${option} ${JSON.stringify(text)}: longer than the limit of ${hours}h (365 days, ${LONGEST_DEADLINE_MS} ms)`,
      `give a deadline of at most ${hours}h`,
    );
  }
  return milliseconds;
}

/** `--pass` names: each an environment variable's name (letters, digits, underscores; not a digit first). */
export function parsePassNames(values: readonly string[]): string[] {
  for (const value of values) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value))
      throw new UsageError(
        `--pass ${JSON.stringify(value)}: not an environment variable's name`,
        'give the name alone, e.g. --pass LANG (its value is read from this environment)',
      );
  }
  return [...values];
}

/** A positive whole number no larger than `most` (which the message names as the limit). */
export function parsePositiveInteger(option: string, text: string, most: number): number {
  if (!/^\d+$/.test(text) || Number(text) <= 0) throw new UsageError(`${option} ${JSON.stringify(text)}: must be a positive whole number`);
  if (Number(text) > most) throw new UsageError(`${option} ${JSON.stringify(text)}: larger than the limit of ${most}`, `give at most ${most}`);
  return Number(text);
}

/** The longest prompt read from a file or stdin: far beyond any task's text, well inside what a string can hold. */
const LONGEST_PROMPT_BYTES = 64 * 1024 * 1024;

/**
 * Exactly one of `--prompt` and `--prompt-file`; the prompt goes to the child on stdin, never in
 * argv (R1.3). `--prompt-file -` reads this process's stdin. Read in bounded steps: a prompt file
 * that never ends (`/dev/zero`) is refused at the limit, named, not an "Invalid string length".
 */
export async function readPrompt(prompt: string | undefined, promptFile: string | undefined): Promise<string> {
  if ((prompt === undefined) === (promptFile === undefined)) throw new UsageError('give exactly one of --prompt <text> and --prompt-file <file>');
  if (prompt !== undefined) return prompt;
  const file = promptFile as string;
  const shown = file === '-' ? 'stdin' : file;
  let handle: FileHandle | undefined;
  try {
    handle = file === '-' ? undefined : await open(file, 'r');
    const chunks: Buffer[] = [];
    let bytes = 0;
    const source = handle === undefined ? process.stdin : handle.createReadStream({ highWaterMark: 1024 * 1024, autoClose: false });
    for await (const chunk of source as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > LONGEST_PROMPT_BYTES)
        throw new UsageError(`--prompt-file ${shown}: longer than the limit of ${LONGEST_PROMPT_BYTES} bytes (64 MiB)`, 'give a shorter prompt');
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new IoFailure(shown, `cannot read the prompt (${(error as Error).message})`, error);
  } finally {
    await handle?.close();
  }
}

/**
 * Commander's parser for an option given at most once: commander keeps the last of repeated values,
 * so `--prompt a --prompt b` would run `b` without a word. Repeating one is a usage error (exit 3).
 */
export function once(option: string): (value: string, previous: unknown) => string {
  let given = false;
  return (value) => {
    if (given) throw new InvalidArgumentError(`${option} is given more than once; give it once`);
    given = true;
    return value;
  };
}

/** Commander's collector for repeatable options. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
