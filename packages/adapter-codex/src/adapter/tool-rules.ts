import { WRAPPER_PROGRAMS } from '@statecraft/adapter';

/**
 * The request's provider-neutral tool rules (`Tool` or `Tool(pattern)`, the form the CLI's
 * `--allow` / `--deny` take) as the adapter's hook applies them to a Codex tool call. Codex names
 * its shell tool `Bash` in a PreToolUse hook's input (docs/facts.md item 22). A pattern is an exact
 * command, or `prefix:*` (the command is the prefix or starts with it and a space), or `*`.
 */
export interface ToolRule {
  text: string;
  tool: string;
  /** `null`: the whole tool. */
  pattern: { kind: 'exact'; command: string } | { kind: 'prefix'; prefix: string } | null;
}

export type ParsedRules = { kind: 'rules'; rules: ToolRule[] } | { kind: 'refused'; message: string };

/** The one tool whose calls the hook is measured to see (docs/facts.md item 22). */
export const HOOKED_TOOL = 'Bash';

export function parseToolRules(texts: readonly string[], field: 'allow' | 'deny'): ParsedRules {
  const rules: ToolRule[] = [];
  for (const text of texts) {
    const match = /^([A-Za-z_][A-Za-z0-9_-]*)(?:\((.*)\))?$/s.exec(text);
    if (match === null) return { kind: 'refused', message: `request limits.${field}: ${JSON.stringify(text)} is not a rule of the form Tool or Tool(pattern)` };
    const tool = match[1] ?? '';
    if (tool !== HOOKED_TOOL) {
      // A rule the hook cannot apply must not be dropped quietly: the operator would believe it held.
      return {
        kind: 'refused',
        message: `request limits.${field}: ${JSON.stringify(text)} names the tool ${tool}; the Codex adapter enforces rules for ${HOOKED_TOOL} only (the only tool its PreToolUse hook is measured to see); remove the rule or use another adapter`,
      };
    }
    const body = match[2];
    if (body === undefined || body === '*') rules.push({ text, tool, pattern: null });
    else if (body.endsWith(':*')) rules.push({ text, tool, pattern: { kind: 'prefix', prefix: body.slice(0, -2) } });
    else rules.push({ text, tool, pattern: { kind: 'exact', command: body } });
  }
  return { kind: 'rules', rules };
}

/**
 * The simple commands of a command line, split at `;`, `&`, `|` and line breaks (quotes are not
 * interpreted: splitting too eagerly only makes a deny rule match more often). A rule must not be
 * escaped by prefixing a harmless command (`echo; touch x`).
 */
export function simpleCommands(command: string): string[] {
  return command
    .split(/[;&|\n]+/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** A command substitution or backquote hides what runs: no allow rule can vouch for it. */
export function hidesCommands(command: string): boolean {
  return command.includes('$(') || command.includes('`') || command.includes('<(') || command.includes('>(');
}

/** Words that open a compound command or a group: the command that runs is the word after them. */
const COMPOUND_OPENERS: ReadonlySet<string> = new Set(['!', '{', '(', 'if', 'then', 'else', 'elif', 'do', 'while', 'until']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * A simple command with its program spelled plainly: leading assignments (`A=1 touch`) and compound
 * openers (`then touch`, `(touch`) dropped, the program's quotes and backslashes taken off
 * (`\touch`, `'touch'`), a path reduced to its last part (`/usr/bin/touch`). Only for deny rules:
 * each of those spellings runs the same program, so a rule naming it must see it.
 */
export function plainSimpleCommand(simple: string): string {
  const words = simple.split(/\s+/).filter((word) => word !== '');
  while (words.length > 0) {
    const word = (words[0] ?? '').replace(/^[({]+/, '');
    if (word === '' || COMPOUND_OPENERS.has(word) || ASSIGNMENT.test(word)) words.shift();
    else {
      words[0] = word;
      break;
    }
  }
  const program = (words[0] ?? '').replace(/['"\\]/g, '');
  words[0] = program.slice(program.lastIndexOf('/') + 1);
  return words.join(' ');
}

/** A program word the shell rewrites before running it (`$X`, `tou?h`, `{touch,x}`); `[` and `[[` are the test builtins. */
function expandsBeforeRunning(program: string): boolean {
  return /[$*?{},]/.test(program) || (program.includes('[') && program !== '[' && program !== '[[');
}

/**
 * Why a Bash command cannot be judged against deny rules, or `undefined` when each of its simple
 * commands names the program it runs. A deny rule matches the first words of a simple command; a
 * program that runs another (a wrapper or a shell: R9.2's list), a program word the shell expands,
 * or a substitution hides what runs, so while deny rules exist such a command is denied rather than
 * let through unseen (fail closed). Programs that run others from their arguments (`find -exec`,
 * an interpreter's `-c`) are not caught: see the package's "does not claim".
 */
export function unjudgeableUnderDeny(command: string): string | undefined {
  if (command.trim() === '') return 'the call carries no command the deny rules could be read against';
  if (hidesCommands(command)) return 'it contains a command substitution, a backquote or a process substitution, whose command the deny rules cannot see';
  for (const simple of simpleCommands(command)) {
    const program = plainSimpleCommand(simple).split(' ')[0] ?? '';
    if (WRAPPER_PROGRAMS.includes(program)) return `it runs ${program}, which runs another program the deny rules cannot see through`;
    if (expandsBeforeRunning(program)) return `its program ${program} is expanded by the shell before it runs, so the deny rules cannot read it`;
  }
  return undefined;
}

function matchesSimple(rule: ToolRule, simple: string): boolean {
  if (rule.pattern === null) return true;
  if (rule.pattern.kind === 'exact') return simple === rule.pattern.command;
  return simple === rule.pattern.prefix || simple.startsWith(`${rule.pattern.prefix} `);
}

/** The first deny rule matching the call: the whole command, or any of its simple commands as written or spelled plainly. */
export function matchingDenyRule(rules: readonly ToolRule[], tool: string, command: string): ToolRule | undefined {
  const simple = simpleCommands(command);
  const parts = [command.trim(), ...simple, ...simple.map(plainSimpleCommand)];
  return rules.find((rule) => rule.tool === tool && parts.some((part) => matchesSimple(rule, part)));
}

/** Whether an allowlist lets the call through: every simple command matched by some allow rule. */
export function allowedBy(rules: readonly ToolRule[], tool: string, command: string): boolean {
  const forTool = rules.filter((rule) => rule.tool === tool);
  if (forTool.some((rule) => rule.pattern === null)) return true;
  if (hidesCommands(command)) return false;
  const parts = simpleCommands(command);
  return parts.length > 0 && parts.every((part) => forTool.some((rule) => matchesSimple(rule, part)));
}
