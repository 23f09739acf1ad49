import * as z from 'zod';

/**
 * How one check command reads (R9.2): a `simple` command names the program that will be looked
 * up on PATH; a `path` command runs a file by its path (nothing on PATH is consulted); anything
 * else is `unparsed` and named as not checked, never guessed at.
 */
export const CommandReadingSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('simple'), text: z.string(), program: z.string().min(1) }),
  z.strictObject({ kind: z.literal('path'), text: z.string(), program: z.string().min(1) }),
  z.strictObject({ kind: z.literal('unparsed'), text: z.string(), reason: z.string().min(1) }),
]);
export type CommandReading = z.infer<typeof CommandReadingSchema>;

/**
 * Programs whose job is to run another program (R9.2): the program they run is not the first
 * word, so a command led by one of them cannot be read as naming its program. R9.2's own list comes
 * first; then the shells beyond it; then programs found to run `touch x` given in their arguments
 * (bash 5.2, util-linux, coreutils, strace, gdb, Debian 12), and others of the same kind. It is an
 * open class: a program that runs another and is named nowhere here reads as itself.
 */
export const WRAPPER_PROGRAMS: readonly string[] = [
  'env exec command builtin xargs timeout nice nohup time sudo doas eval source . sh bash dash zsh ksh',
  'rbash ash mksh fish csh tcsh busybox',
  'setsid stdbuf flock unshare nsenter ionice taskset strace gdb su script chroot',
  'chrt prlimit setpriv runuser ltrace valgrind pkexec fakeroot unbuffer watch parallel systemd-run',
].flatMap((line) => line.split(' '));

/** Characters that make a command more than one program with arguments, outside single quotes (R9.2). */
const SHELL_METACHARACTERS = new Set(['|', '&', ';', '<', '>', '(', ')', '$', '`', '\\']);

/** Letters, digits and `_ . + -` (R9.1, R9.2); the same alphabet as a declared entry. */
const BARE_PROGRAM_NAME = /^[A-Za-z0-9_.+-]+$/;
const ASSIGNMENT_PREFIX = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Reads one check command (R9.2). Pure: nothing is executed or looked up. */
export function classifyCommand(text: string): CommandReading {
  const scanned = scanCommand(text);
  if (scanned.kind === 'unparsed') return { kind: 'unparsed', text, reason: scanned.reason };
  const { firstWord, firstWordQuoted } = scanned;
  if (firstWord === '' && !firstWordQuoted) return { kind: 'unparsed', text, reason: 'the command is empty' };
  // A path bypasses PATH lookup, so there is no program to compare with the allowance.
  if (firstWord.includes('/')) return { kind: 'path', text, program: firstWord };
  if (firstWordQuoted) {
    return { kind: 'unparsed', text, reason: 'its first word is quoted, so it is not read as a bare program name' };
  }
  if (ASSIGNMENT_PREFIX.test(firstWord)) {
    return { kind: 'unparsed', text, reason: `it starts with a variable assignment (${firstWord})` };
  }
  if (!BARE_PROGRAM_NAME.test(firstWord)) {
    return {
      kind: 'unparsed',
      text,
      reason: `its first word "${firstWord}" is not a bare program name (letters, digits and _ . + - only)`,
    };
  }
  if (WRAPPER_PROGRAMS.includes(firstWord)) {
    return { kind: 'unparsed', text, reason: `"${firstWord}" runs another program, which is not seen` };
  }
  if (firstWord === '..') {
    return { kind: 'unparsed', text, reason: '".." is not a program name' };
  }
  return { kind: 'simple', text, program: firstWord };
}

type Scan = { kind: 'unparsed'; reason: string } | { kind: 'scanned'; firstWord: string; firstWordQuoted: boolean };

/**
 * One pass over the text: rejects metacharacters outside single quotes (double quotes do not
 * make them literal, since the shell still expands `$` and backquotes there), rejects unclosed
 * quotes and line breaks, and collects the first word with its quotes removed.
 */
function scanCommand(text: string): Scan {
  let quote: "'" | '"' | null = null;
  let firstWord = '';
  let firstWordQuoted = false;
  let firstWordState: 'before' | 'inside' | 'after' = 'before';
  for (const char of text) {
    // A command is one line: a line break anywhere (even in single quotes) means the block
    // continued it, and a continued command is not read (decision 0004).
    if (char === '\n' || char === '\r') return { kind: 'unparsed', reason: 'it contains a line break' };
    if (quote === "'") {
      if (char === "'") quote = null;
      else if (firstWordState === 'inside') firstWord += char;
      continue;
    }
    if (SHELL_METACHARACTERS.has(char)) {
      const where = quote === '"' ? ' (inside double quotes, which do not make it literal)' : '';
      return { kind: 'unparsed', reason: `it contains ${describeCharacter(char)}${where}` };
    }
    if (quote === '"') {
      if (char === '"') quote = null;
      else if (firstWordState === 'inside') firstWord += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      if (firstWordState === 'before') firstWordState = 'inside';
      if (firstWordState === 'inside') firstWordQuoted = true;
      continue;
    }
    if (/\s/.test(char)) {
      if (firstWordState === 'inside') firstWordState = 'after';
      continue;
    }
    if (firstWordState === 'before') firstWordState = 'inside';
    if (firstWordState === 'inside') firstWord += char;
  }
  if (quote !== null) return { kind: 'unparsed', reason: `it has an unclosed ${quote === "'" ? 'single' : 'double'} quote` };
  return { kind: 'scanned', firstWord, firstWordQuoted };
}

function describeCharacter(char: string): string {
  if (char === '`') return 'a backquote';
  if (char === '\\') return 'a backslash';
  return `"${char}"`;
}
