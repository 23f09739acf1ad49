import type { CodexConfiguration } from './native-stream-mapper.js';

/** The Responses-API endpoint when the operator names none (OPENAI_BASE_URL unset). */
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** A TOML basic string: JSON's escapes are TOML's for every character JSON.stringify emits. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

export interface ConfigDocumentInput {
  configuration: CodexConfiguration;
  /** The hook command line Codex runs before every tool call (the adapter's own `hook` verb). */
  hookCommand: string;
}

/**
 * Codex's whole configuration for one attempt, as the one private document it reads
 * (`$CODEX_HOME/config.toml`, R10.1): a model provider named `statecraft` pointed at the endpoint
 * with the key from `OPENAI_API_KEY` (docs/facts.md item 20); the workspace-write sandbox with /tmp
 * and $TMPDIR excluded, so only the workspace is writable (item 23); approvals never asked (an exec
 * session has nobody to ask); no update check (no network beyond the endpoint); the PreToolUse
 * hook, matched on every tool, that applies the deny and allow rules (under strict permissions the
 * allowlist, however empty) and the request's hooks; and, when the hook enforces anything, no tty sessions (`unified_exec_tty = false`: Codex then refuses
 * `exec_command` with `tty: true`, and `write_stdin` has no session to feed, docs/facts.md item 31).
 */
export function configDocumentFor(input: ConfigDocumentInput): string {
  const { configuration } = input;
  const lines = [
    '# Written by the statecraft Codex adapter for one attempt; removed when the attempt ends.',
    ...(configuration.model === 'provider-default' ? [] : [`model = ${tomlString(configuration.model)}`]),
    'model_provider = "statecraft"',
    `approval_policy = ${tomlString(configuration.approvalPolicy)}`,
    `sandbox_mode = ${tomlString(configuration.sandboxMode)}`,
    'check_for_update_on_startup = false',
    '',
    '[sandbox_workspace_write]',
    'exclude_slash_tmp = true',
    'exclude_tmpdir_env_var = true',
    'network_access = false',
    '',
    '[model_providers.statecraft]',
    'name = "statecraft"',
    `base_url = ${tomlString(configuration.baseUrl)}`,
    'env_key = "OPENAI_API_KEY"',
    'wire_api = "responses"',
    '',
    '[[hooks.PreToolUse]]',
    'matcher = "*"',
    '',
    '[[hooks.PreToolUse.hooks]]',
    'type = "command"',
    `command = ${tomlString(input.hookCommand)}`,
    '',
    ...(configuration.ttySessions === 'disabled' ? ['[features]', 'unified_exec_tty = false', ''] : []),
  ];
  return lines.join('\n');
}
