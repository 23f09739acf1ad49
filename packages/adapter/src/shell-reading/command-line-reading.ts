/**
 * How the hook reads a Bash command line for the request's rules, without running it. Where bash
 * could read the text more than one way, every reading is kept: a rule judges them all, so a
 * misreading can only make the hook deny more, never let a command through unseen.
 */

/** A word of a simple command, with bash's quoting applied. */
export interface ShellWord {
  /** As written. */
  raw: string;
  /** Quotes and backslashes taken off; an expansion's `$` or backquote is kept as written. */
  text: string;
  /** Bash expands it before use: a `$` or a backquote outside single quotes, or `$'…'` / `$"…"` quoting. */
  expands: boolean;
  /**
   * As written with every quoted or backslash-escaped character made `_`: what is left of its
   * characters is what brace, tilde and pathname expansion read (`{a,b}`, `~`, `*` act only unquoted).
   */
  bare: string;
  /** A quote it opens does not close before the end of the simple command. */
  unclosed: boolean;
}

/** A simple command read into words: redirections (and their targets) left out. */
export interface SimpleCommandReading {
  /** `NAME=value` words before the program. */
  assignments: ShellWord[];
  /** The program word and its arguments; empty for a command of assignments and redirections only. */
  words: ShellWord[];
  /** The words redirections name (`> out.txt`): files, not arguments, but expanded by bash all the same. */
  targets: ShellWord[];
  /** An unquoted `(` or `)`: a subshell, a function definition, an arithmetic command, an array, a pattern. */
  parenthesis: boolean;
}

/**
 * The text bash may be reading: the line continuations (backslash-newline) joined, as bash joins
 * them outside single quotes and comments, and the text as written, as bash reads it inside them
 * (`echo # \` then `touch x` on the next line runs touch).
 */
export function readingsOf(command: string): string[] {
  const joined = command.replace(/\\\n/g, '');
  return joined === command ? [command] : [joined, command];
}

/**
 * The simple commands of a command line, split at `;`, `|`, `&` and line breaks outside quotes as
 * bash splits them — but not at the `&` of a redirection (`2>&1`, `&>`), which would cut the
 * program off its redirection. A `;` in a quoted commit message is part of its word. Where quotes
 * alone cannot say what bash reads (a `#` that may open a comment, a here-document's body, a quote
 * that does not close), the text is split at every such character, in quotes or not, in every
 * reading: the rules then judge more pieces, never fewer.
 */
export function simpleCommands(command: string): string[] {
  const quoted = /#|<</.test(command) ? undefined : splitOutsideQuotes(command);
  const pieces = quoted ?? readingsOf(command).flatMap((reading) => reading.split(/[;|\n]+|(?<![<>])&(?!>)/));
  return [...new Set(pieces.map((piece) => piece.trim()).filter((piece) => piece !== ''))];
}

/**
 * The pieces between unquoted separators, with bash's quoting: a backslash takes the next character
 * (a line continuation is dropped), single quotes take everything to the next `'`, double and
 * `$'…'` quotes honour a backslash. `undefined` when a quote does not close.
 */
function splitOutsideQuotes(command: string): string[] | undefined {
  const pieces: string[] = [];
  let piece = '';
  let quote: "'" | '"' | "$'" | undefined;
  for (let at = 0; at < command.length; at += 1) {
    const char = command[at] ?? '';
    const next = command[at + 1] ?? '';
    if (char === '\\' && quote !== "'") {
      // Outside single quotes, backslash-newline is a line continuation: bash removes both.
      if (next !== '\n') piece += char + next;
      at += 1;
    } else if (quote !== undefined) {
      piece += char;
      if (char === quote.at(-1)) quote = undefined;
    } else if (char === "'" || char === '"') {
      piece += char;
      quote = char;
    } else if (char === '$' && next === "'") {
      piece += char + next;
      quote = "$'";
      at += 1;
    } else if (char === ';' || char === '|' || char === '\n' || (char === '&' && !/[<>]/.test(command[at - 1] ?? '') && next !== '>')) {
      pieces.push(piece);
      piece = '';
    } else piece += char;
  }
  if (quote !== undefined) return undefined;
  pieces.push(piece);
  return pieces;
}

/** The redirection operators, longest first. */
const REDIRECTIONS = ['&>>', '<<<', '<<-', '&>', '>>', '<<', '<>', '>|', '<&', '>&', '<', '>'];

type Token = { kind: 'word'; word: ShellWord; glued: boolean } | { kind: 'operator'; operator: string };

/** Reads one quoted or unquoted stretch of a word starting at `at`; returns where it ends. */
function readWordPart(text: string, at: number, word: ShellWord): number {
  const char = text[at] ?? '';
  const next = text[at + 1];
  word.raw += char;
  if (char === '\\') {
    if (next === undefined) {
      word.text += char;
      word.bare += char;
      return at + 1;
    }
    word.raw += next;
    word.text += next;
    word.bare += '__';
    return at + 2;
  }
  if (char === "'" || char === '"') word.bare += '_';
  if (char === "'") return readQuoted(text, at + 1, word, "'", false);
  if (char === '"') return readQuoted(text, at + 1, word, '"', true);
  if (char === '$' && (next === "'" || next === '"')) {
    // ANSI-C (`$'\x74'`) or locale (`$"…"`) quoting: what it stands for is not read here.
    word.raw += next;
    word.text += char;
    word.bare += '$_';
    word.expands = true;
    return readQuoted(text, at + 2, word, next, true);
  }
  if (char === '$' || char === '`') word.expands = true;
  word.text += char;
  word.bare += char;
  return at + 1;
}

/** Reads up to the closing quote; `escapes`: a backslash takes the next character with it. */
function readQuoted(text: string, from: number, word: ShellWord, quote: string, escapes: boolean): number {
  let at = from;
  while (at < text.length) {
    const char = text[at] ?? '';
    word.raw += char;
    word.bare += '_';
    if (char === quote) return at + 1;
    if (escapes && char === '\\' && at + 1 < text.length) {
      word.raw += text[at + 1] ?? '';
      word.text += text[at + 1] ?? '';
      word.bare += '_';
      at += 2;
      continue;
    }
    if (quote === '"' && (char === '$' || char === '`')) word.expands = true;
    word.text += char;
    at += 1;
  }
  word.unclosed = true;
  return at;
}

/** Words and operators, as bash's metacharacters (blanks, `<`, `>`, `&`, `(`, `)`) divide a simple command. */
function tokensOf(simple: string): Token[] {
  const tokens: Token[] = [];
  let word: ShellWord | undefined;
  const finish = (glued: boolean): void => {
    if (word !== undefined) tokens.push({ kind: 'word', word, glued });
    word = undefined;
  };
  let at = 0;
  while (at < simple.length) {
    const char = simple[at] ?? '';
    if (char === ' ' || char === '\t') {
      finish(false);
      at += 1;
    } else if ('<>&()'.includes(char)) {
      const operator = char === '(' || char === ')' ? char : (REDIRECTIONS.find((candidate) => simple.startsWith(candidate, at)) ?? char);
      finish(true);
      tokens.push({ kind: 'operator', operator });
      at += operator.length;
    } else {
      word ??= { raw: '', text: '', expands: false, unclosed: false, bare: '' };
      at = readWordPart(simple, at, word);
    }
  }
  finish(false);
  return tokens;
}

/** `NAME=` or `NAME+=` at the start of a word as written: an assignment. */
export const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

/**
 * A simple command's assignments, program and arguments, its redirections dropped wherever they
 * stand (`>/dev/null touch x`, `2> err touch x`, `bash<<<"…"`): a redirection's target is not an
 * argument, and a descriptor number glued to its operator (`2>`) is not a word.
 */
export function readSimpleCommand(simple: string): SimpleCommandReading {
  const tokens = tokensOf(simple);
  const reading: SimpleCommandReading = { assignments: [], words: [], targets: [], parenthesis: false };
  let target = false;
  tokens.forEach((token, index) => {
    if (token.kind === 'operator') {
      if (token.operator === '(' || token.operator === ')') reading.parenthesis = true;
      else target = true;
      return;
    }
    const next = tokens[index + 1];
    const descriptor = token.glued && /^[0-9]+$/.test(token.word.raw) && next?.kind === 'operator' && next.operator !== '(' && next.operator !== ')';
    if (target) {
      target = false;
      reading.targets.push(token.word);
    } else if (descriptor) return;
    else if (reading.words.length === 0 && ASSIGNMENT.test(token.word.raw)) reading.assignments.push(token.word);
    else reading.words.push(token.word);
  });
  return reading;
}

/** Words after which the next word is the program that runs (`then touch`, `! touch`, `coproc touch`). */
const OPENERS: ReadonlySet<string> = new Set(['!', '{', 'if', 'then', 'else', 'elif', 'do', 'while', 'until', 'time', 'coproc']);

/**
 * A simple command with its program spelled plainly: redirections, leading assignments and openers
 * dropped, quotes and backslashes taken off, the program's path reduced to its last part
 * (`>/dev/null A=1 /usr/bin/"touch" x` reads `touch x`). Only for deny rules: each of those
 * spellings runs the same program, so a rule naming it must see it.
 */
export function plainSimpleCommand(simple: string): string {
  const words = readSimpleCommand(simple).words;
  while (words.length > 0 && (OPENERS.has(words[0]?.text ?? '') || ASSIGNMENT.test(words[0]?.raw ?? ''))) words.shift();
  const [program, ...rest] = words;
  if (program === undefined) return '';
  return [program.text.slice(program.text.lastIndexOf('/') + 1), ...rest.map((word) => word.text)].join(' ');
}
