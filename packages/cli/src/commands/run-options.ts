import { readFile } from 'node:fs/promises';
import { CapabilityTokenSchema, CAPABILITY_TOKENS, type CapabilityToken } from '@statecraft/adapter';
import { UsageError, IoFailure } from '../errors.js';

/** `--deadline` values: `500ms`, `2s`, `30m`, `1h`, or a bare number of seconds. */
export function parseDuration(option: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (match === null) throw new UsageError(`${option} ${JSON.stringify(text)}: not a duration`, 'write e.g. 90s, 30m or 1h');
  const amount = Number(match[1]);
  const unit = match[2] ?? 's';
  const factor = unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000;
  const milliseconds = Math.round(amount * factor);
  if (milliseconds <= 0) throw new UsageError(`${option} ${JSON.stringify(text)}: must be longer than zero`);
  return milliseconds;
}

export function parseTokens(option: string, values: readonly string[]): CapabilityToken[] {
  return values.map((value) => {
    const parsed = CapabilityTokenSchema.safeParse(value);
    if (!parsed.success) throw new UsageError(`${option} ${JSON.stringify(value)}: not a capability token`, `the tokens are: ${CAPABILITY_TOKENS.join(', ')}`);
    return parsed.data;
  });
}

export function parsePositiveInteger(option: string, text: string): number {
  if (!/^\d+$/.test(text) || Number(text) <= 0) throw new UsageError(`${option} ${JSON.stringify(text)}: must be a positive whole number`);
  return Number(text);
}

/** Exactly one of `--prompt` and `--prompt-file`; the prompt goes to the child on stdin, never in argv (R1.3). */
export async function readPrompt(prompt: string | undefined, promptFile: string | undefined): Promise<string> {
  if ((prompt === undefined) === (promptFile === undefined)) throw new UsageError('give exactly one of --prompt <text> and --prompt-file <file>');
  if (prompt !== undefined) return prompt;
  try {
    return await readFile(promptFile as string, 'utf8');
  } catch (error) {
    throw new IoFailure(promptFile as string, `cannot read the prompt (${(error as Error).message})`, error);
  }
}

/** Commander's collector for repeatable options. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
