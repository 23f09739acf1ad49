import { classifyCommand } from '@statecraft/adapter';
import { findExecutableOnPath } from '@statecraft/adapter';

/** How one check is started (R13.3): argv without a shell for a simple command, else `/bin/sh -c`. */
export type CheckInvocation =
  | { kind: 'startable'; program: string; shell: boolean; file: string; args: string[] }
  | { kind: 'not-startable'; program: string; shell: false; message: string };

/** Characters a shell would expand in an unquoted word: such a command means more than its argv. */
const UNQUOTED_EXPANSION = /[*?[~#{]/;

/**
 * A simple command (R9.2) runs as argv without a shell: its words, quotes removed, the program
 * resolved on the check environment's PATH (found before the spawn, so a missing program is a
 * check that could not start, not a failure). Anything else — and a simple command whose unquoted
 * words a shell would expand (globs, `~`, `#`, braces; decision 0035) — runs through
 * `/bin/sh -c` and is marked `shell`.
 */
export function planCheckInvocation(command: string, pathValue: string | undefined): CheckInvocation {
  const reading = classifyCommand(command);
  const words = reading.kind === 'simple' ? splitSimpleWords(command) : undefined;
  if (reading.kind !== 'simple' || words === undefined) return { kind: 'startable', program: '/bin/sh', shell: true, file: '/bin/sh', args: ['-c', command] };
  const file = findExecutableOnPath(reading.program, pathValue);
  if (file === undefined) {
    return {
      kind: 'not-startable',
      program: reading.program,
      shell: false,
      message: `${reading.program} is not found on the checks' PATH (${pathValue ?? 'unset'}); the check could not start`,
    };
  }
  return { kind: 'startable', program: reading.program, shell: false, file, args: words.slice(1) };
}

/**
 * The words of a simple command: whitespace separates, quotes group and are removed. A simple
 * command holds no backslash, `$` or backquote (R9.2), so quoted text is literal. `undefined`
 * when an unquoted word holds something a shell would expand.
 */
function splitSimpleWords(command: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | null = null;
  for (const char of command) {
    if (quote !== null) {
      if (char === quote) quote = null;
      else word += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
      continue;
    }
    if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      continue;
    }
    if (UNQUOTED_EXPANSION.test(char)) return undefined;
    word = (word ?? '') + char;
  }
  if (word !== undefined) words.push(word);
  return words;
}
