/**
 * A deny rule that names a whole tool (`Bash`, no pattern). Claude Code takes such a rule, in the
 * settings' `permissions.deny` or in `--disallowedTools`, as removing the tool: the model is never
 * offered it, and a call leaves no denial (docs/facts.md item 6), so its refusal would not survive
 * as evidence (R10.3). The adapter keeps the tool and blocks each call with a `PreToolUse` hook
 * instead, which claude lists in `permission_denials` (item 8).
 */
export function isWholeToolRule(rule: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_]*$/.test(rule);
}

/**
 * The hook command that blocks every call of `tool`: exit 2 is claude's "block", and what it writes
 * on stderr is what the model is told. `tool` is a bare name (isWholeToolRule), safe in a word.
 */
export function blockingHookCommand(tool: string): string {
  return `echo 'statecraft: the ${tool} tool is denied by the rule ${tool}' >&2; exit 2`;
}
