/**
 * `codex exec` with the JSON event stream and the prompt on stdin (`-`; R1.3: never argv, no
 * shell). The workspace is named with `-C` as well as being the working directory (R7.1). Hooks are
 * trusted for this invocation only (docs/facts.md item 22): the one hook is the adapter's own.
 * `--strict-config` makes a key this Codex version does not know an error rather than a setting
 * silently ignored. Everything else is in the private config document (R10.1): no `-c` overrides,
 * so no second settings source exists.
 */
export function buildCodexArgv(workspace: string): string[] {
  return ['exec', '--json', '--strict-config', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', '-C', workspace, '-'];
}
