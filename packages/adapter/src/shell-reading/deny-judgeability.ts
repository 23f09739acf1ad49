import { ASSIGNMENT, readSimpleCommand, simpleCommands } from './command-line-reading.js';
import type { ShellWord, SimpleCommandReading } from './command-line-reading.js';
import { BUILTINS_THAT_EVALUATE_NAMES, BUILTINS_THAT_RUN_CODE, PROGRAMS_THAT_RUN_OTHERS, SHELL_KEYWORDS, VARIABLES_RUN_AS_CODE } from './fail-closed-names.js';

/** A command substitution or backquote hides what runs: no rule can vouch for it. */
function hidesCommands(command: string): boolean {
  return command.includes('$(') || command.includes('`') || command.includes('<(') || command.includes('>(');
}

/**
 * `${…}` beyond a plain name (`${a[p]}`, `${s:p}`, `${!p}`, `${p@P}`, `${T:-x}`) or `$[…]`: each
 * evaluates a variable's value as arithmetic, a name or a prompt, where a subscript's command
 * substitution runs although the text holds no `$(`. Read in quotes too: the safe side.
 */
function evaluatesValues(command: string): boolean {
  return command.includes('$[') || /\$\{(?![A-Za-z_][A-Za-z0-9_]*\}|[0-9]+\}|[#?$!@*0-]\})/.test(command);
}

/** The program word as a rule may match it: letters, digits and `_ . + / @ % : -` once its quotes are off. */
const PLAIN_PROGRAM = /^[A-Za-z0-9_.+/@%:-]+$/;

/** Pathname, brace and tilde expansion characters: the shell rewrites such a program word before it runs. */
const EXPANDED_BY_THE_SHELL = /[*?[\]{},~]/;

/** A path through the kernel's views of processes (`/proc/self/exe`, `/dev/fd/3`): it names what a process runs, not a program by its name. */
const THROUGH_PROCESS_VIEWS = /(^|\/)(proc|dev)\//;

function nameAssigned(word: ShellWord): string | undefined {
  return ASSIGNMENT.test(word.raw) ? word.raw.slice(0, word.raw.search(/\+?=/)) : undefined;
}

/**
 * Why the program word of one simple command cannot be judged by a deny rule, if it cannot. A
 * builtin is named bare (`/usr/bin/printf` is another program, which reads no shell variable); a
 * program that runs others by any path to it.
 */
function programDoubt(program: ShellWord): string | undefined {
  const { raw, text } = program;
  if (program.unclosed) {
    return `its program word ${raw} opens a quote that does not close before the next ;, &, | or line break, so the deny rules cannot tell where its command starts`;
  }
  if (SHELL_KEYWORDS.has(text) && !PROGRAMS_THAT_RUN_OTHERS.has(text))
    return `it opens with the shell keyword ${text}, whose commands the deny rules do not follow`;
  if (program.expands) return `its program ${raw} is expanded by the shell before it runs, so the deny rules cannot read it`;
  if (BUILTINS_THAT_RUN_CODE.has(text)) return `it runs the builtin ${text}, which runs code from its arguments or gives a name a new meaning`;
  if (BUILTINS_THAT_EVALUATE_NAMES.has(text)) {
    return `it runs the builtin ${text}, which reads a variable named by its arguments or evaluates arithmetic, where a subscript can run a command`;
  }
  if (EXPANDED_BY_THE_SHELL.test(text)) return `its program ${raw} is expanded by the shell before it runs, so the deny rules cannot read it`;
  if (!PLAIN_PROGRAM.test(text)) {
    return `its program ${JSON.stringify(raw)} is not plainly a name (letters, digits and _ . + / @ % : - once unquoted), so the deny rules cannot be sure what runs`;
  }
  if (THROUGH_PROCESS_VIEWS.test(text))
    return `its program ${raw} is reached through /proc or /dev, which names the program a process runs, not a program by its name`;
  const name = text.slice(text.lastIndexOf('/') + 1);
  if (PROGRAMS_THAT_RUN_OTHERS.has(name)) return `it runs ${name}, which runs another program the deny rules cannot see through`;
  return undefined;
}

/** Why one simple command's shape hides a command from any rule, whatever its program is called. */
function shapeDoubt(reading: SimpleCommandReading): string | undefined {
  if (reading.parenthesis) {
    return 'it holds an unquoted ( or ): a subshell, a function definition, an arithmetic command, an array or a pattern, whose commands the rules do not follow';
  }
  const assigned = [...reading.assignments, ...reading.words].map(nameAssigned).find((name) => name !== undefined && VARIABLES_RUN_AS_CODE.has(name));
  if (assigned !== undefined) return `it assigns ${assigned}, which bash or the dynamic loader runs as code`;
  return undefined;
}

/** Why the text as a whole hides a command from any rule: a substitution, or a value evaluated as code. */
function textDoubt(command: string): string | undefined {
  if (hidesCommands(command)) return 'it contains a command substitution, a backquote or a process substitution, whose command the deny rules cannot see';
  if (evaluatesValues(command)) {
    return "it contains ${…} beyond a plain name, or $[…]: a subscript, an offset, an indirection or a prompt expansion evaluates a variable's value, where a command can run";
  }
  return undefined;
}

/** Brace expansion (`{a,b}`, `{a..c}`), tilde expansion (`~`, `=~`, `:~`) and pathname expansion (`*`, `?`, `[`), read on a word's unquoted characters. */
const BRACE_EXPANSION = /\{.*(?:,|\.\.).*\}/s;
const TILDE_EXPANSION = /(?:^|[=:])~/;
const PATHNAME_EXPANSION = /[*?[]/;

/** Which expansion the shell applies to a word before the program sees it, if any. */
function expansionOf(word: ShellWord): string | undefined {
  if (word.expands) return 'a parameter, arithmetic, a substitution or $\'…\' / $"…" quoting';
  if (BRACE_EXPANSION.test(word.bare)) return 'brace expansion';
  if (PATHNAME_EXPANSION.test(word.bare)) return 'pathname expansion';
  if (TILDE_EXPANSION.test(word.bare)) return 'tilde expansion';
  return undefined;
}

/**
 * Why a word of the simple command, in any position, cannot be read: the shell expands it, so the
 * words the program receives are not the words written (`git $'push'`, `git {push,x}`, `git pus?`,
 * `S=push; git $S`), and a rule matching the written words would let them through unseen.
 */
function wordDoubt(reading: SimpleCommandReading): string | undefined {
  for (const word of [...reading.assignments, ...reading.words, ...reading.targets]) {
    const expansion = expansionOf(word);
    if (expansion !== undefined)
      return `its word ${word.raw} is expanded by the shell (${expansion}) before the program sees it, so the deny rules cannot read what runs`;
  }
  return undefined;
}

function firstDoubt(simples: readonly string[], doubtOf: (reading: SimpleCommandReading) => string | undefined): string | undefined {
  for (const simple of simples) {
    const doubt = doubtOf(readSimpleCommand(simple));
    if (doubt !== undefined) return doubt;
  }
  return undefined;
}

/**
 * Why a command may run something no rule sees, whatever its programs are called, or `undefined`:
 * a substitution, a value evaluated as code, a subshell or a function definition, an assignment to
 * a variable run as code. An allowlist lets no such command through either.
 */
export function hiddenFromEveryRule(command: string): string | undefined {
  return textDoubt(command) ?? firstDoubt(simpleCommands(command), shapeDoubt);
}

/**
 * Why a Bash command cannot be judged against deny rules, or `undefined` when each of its simple
 * commands, in every reading of it, names the program it runs plainly. A deny rule matches the
 * first words of a simple command; a program that runs another (a wrapper or a shell), a keyword
 * opening a compound command, a builtin that runs code or evaluates a variable named by its
 * arguments, a word in any position the shell expands, or what hides a command from every rule,
 * makes what runs unreadable, so while deny rules exist such a command is denied rather than let through
 * unseen (fail closed). Programs that run others from their arguments (`find -exec`, an
 * interpreter's `-c`) are not caught: see the package's "does not claim".
 */
export function unjudgeableUnderDeny(command: string): string | undefined {
  if (command.trim() === '') return 'the call carries no command the deny rules could be read against';
  const doubtOf = (reading: SimpleCommandReading): string | undefined =>
    (reading.words[0] === undefined ? undefined : programDoubt(reading.words[0])) ?? shapeDoubt(reading);
  const simples = simpleCommands(command);
  return textDoubt(command) ?? firstDoubt(simples, doubtOf) ?? firstDoubt(simples, wordDoubt);
}
