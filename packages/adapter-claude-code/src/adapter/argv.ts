import { isWholeToolRule } from './whole-tool-rule.js';

export type ClaudePermissionMode = 'default' | 'accept-edits' | 'bypass';

/** The `--permission-mode` value claude is given for each mode, and reports back in its init. */
export const CLAUDE_PERMISSION_MODE: Readonly<Record<ClaudePermissionMode, string>> = {
  default: 'default',
  'accept-edits': 'acceptEdits',
  bypass: 'bypassPermissions',
};

/** What the provider invocation is built from: the request's limits, already checked. */
export interface ClaudeInvocation {
  /** The private settings file carrying allow and deny rules and hooks (R10.1). */
  settingsPath: string;
  maxTurns: number | null;
  removeTools: readonly string[];
  /**
   * Only inside the evidence boundary (R12), where bwrap keeps every write in the workspace:
   * `bypass` (the request's `sandboxed` mode) permits every tool but the denied ones; `accept-edits`
   * (`strict`) lets claude edit files and run shell commands that write in the workspace without a
   * per-command allow rule. `default` elsewhere: claude's own prompts, which print mode answers no.
   */
  permissionMode: ClaudePermissionMode;
  /**
   * The request's deny rules, given again as `--disallowedTools` under `bypass`: claude documents
   * the flag as holding in that mode, and a call it stops is still listed in `permission_denials`.
   * Not a rule naming a whole tool: there the flag removes the tool (whole-tool-rule.ts).
   */
  denyRules?: readonly string[];
  /** Arguments added by the caller (tests); each is checked like the rest. */
  extraArgs?: readonly string[];
}

export type ClaudeArgv = { kind: 'argv'; argv: string[] } | { kind: 'refused'; reason: 'second-settings' | 'option-like-value'; message: string };

/** Always passed: print mode, the structured stream, and hook events (docs/facts.md item 8). */
export const BASE_CLAUDE_ARGS = ['--print', '--output-format', 'stream-json', '--verbose', '--include-hook-events'] as const;

function isSettingsFlag(arg: string): boolean {
  return arg === '--settings' || arg.startsWith('--settings=');
}

/**
 * Builds claude's argv (no shell, no prompt: the prompt goes on stdin, R1.3). Refuses a second
 * `--settings` (R10.1): a later settings document could quietly replace the deny rules. A value
 * starting with `-` is refused too, because claude would read it as an option (a tool named
 * `--settings` would smuggle in exactly that second document).
 */
export function buildClaudeArgv(invocation: ClaudeInvocation): ClaudeArgv {
  const bypass = invocation.permissionMode === 'bypass';
  const denied = bypass ? (invocation.denyRules ?? []).filter((rule) => !isWholeToolRule(rule)) : [];
  const values = [...invocation.removeTools, ...denied];
  for (const value of values) {
    if (value.startsWith('-')) {
      return {
        kind: 'refused',
        reason: 'option-like-value',
        message: `tool name ${JSON.stringify(value)} starts with "-" and would be read as an option; refused`,
      };
    }
  }
  const argv: string[] = [...BASE_CLAUDE_ARGS, '--settings', invocation.settingsPath];
  // No settings file but the adapter's own: claude reloads the others mid-session, and the agent may
  // write every one of them (the workspace's .claude/settings.json and settings.local.json, the
  // private configuration's settings.json). Their `env` reached the adapter's own hook (a
  // NODE_OPTIONS --require made it answer "allow"), their `disableAllHooks` every hook.
  argv.push('--setting-sources', '');
  // A flag, not the settings document's `defaultMode`: a command-line mode wins over a repository's
  // own `.claude/settings.json`, and claude's init reports the mode it took (read back for R2.4).
  if (invocation.permissionMode !== 'default') argv.push('--permission-mode', CLAUDE_PERMISSION_MODE[invocation.permissionMode]);
  if (invocation.maxTurns !== null) argv.push('--max-turns', String(invocation.maxTurns));
  // Removal leaves no refusal record (R10.3): it is only for tools the request removes outright.
  // Under bypass the deny rules with a pattern join them; a whole tool's is blocked by a hook instead.
  if (values.length > 0) argv.push('--disallowedTools', ...values);
  argv.push(...(invocation.extraArgs ?? []));
  const settingsFlags = argv.filter(isSettingsFlag).length;
  if (settingsFlags > 1) {
    return {
      kind: 'refused',
      reason: 'second-settings',
      message: `the invocation carries ${settingsFlags} --settings options; only the adapter's private settings file may be given (R10.1)`,
    };
  }
  return { kind: 'argv', argv };
}
