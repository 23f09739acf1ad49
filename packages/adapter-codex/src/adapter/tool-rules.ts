import { hiddenFromEveryRule, plainSimpleCommand, readingsOf, simpleCommands } from '@statecraft/adapter';

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

/** Codex's own edit tool as the hook names it (docs/facts.md item 31): its sandbox keeps the writes in the workspace. */
const EDIT_TOOL = 'apply_patch';

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

function matchesSimple(rule: ToolRule, simple: string): boolean {
  if (rule.pattern === null) return true;
  if (rule.pattern.kind === 'exact') return simple === rule.pattern.command;
  return simple === rule.pattern.prefix || simple.startsWith(`${rule.pattern.prefix} `);
}

/** The first deny rule matching the call: the whole command in any reading, or any of its simple commands as written or spelled plainly. */
export function matchingDenyRule(rules: readonly ToolRule[], tool: string, command: string): ToolRule | undefined {
  const simple = simpleCommands(command);
  const parts = [...readingsOf(command).map((reading) => reading.trim()), ...simple, ...simple.map(plainSimpleCommand)];
  return rules.find((rule) => rule.tool === tool && parts.some((part) => matchesSimple(rule, part)));
}

/**
 * Whether an allowlist lets the call through: every simple command, in every reading, matched by
 * some allow rule as written, and nothing in the command that hides another from every rule (a
 * substitution, a value evaluated as code, a function definition: `echo () ( touch x ); echo`).
 */
export function allowedBy(rules: readonly ToolRule[], tool: string, command: string): boolean {
  const forTool = rules.filter((rule) => rule.tool === tool);
  if (forTool.some((rule) => rule.pattern === null)) return true;
  if (hiddenFromEveryRule(command) !== undefined) return false;
  const parts = simpleCommands(command);
  return parts.length > 0 && parts.every((part) => forTool.some((rule) => matchesSimple(rule, part)));
}

/**
 * Whether a call runs under strict permissions (decision 0341): Codex's own edit tool, as Claude
 * Code's `acceptEdits` lets its edits through; otherwise only what the allowlist covers. A shell
 * call that only reads is no exception (no rule can tell a read from what else a command line runs),
 * and neither is any tool the hook sees that no rule can name: strict refuses the unforeseen.
 */
export function permittedUnderStrict(allow: readonly ToolRule[], tool: string, command: string): boolean {
  return tool === EDIT_TOOL || allowedBy(allow, tool, command);
}
