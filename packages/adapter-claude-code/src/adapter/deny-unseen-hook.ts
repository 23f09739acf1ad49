import { unjudgeableUnderDeny } from '@statecraft/adapter';

/** Exit 2 is claude's "block": the call is not run, what the hook wrote on stderr is what the model is told, and claude lists the call in `permission_denials` (docs/facts.md item 8). */
const BLOCK = 2;

/** A word for a POSIX shell: single-quoted, any single quote closed and escaped. */
function shellWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The `PreToolUse` hook command, matched on Bash, that the settings document carries while deny rules
 * exist: the adapter executable itself (`hook --deny-unseen`), so the adapter's content digest
 * covers the code that denies (R3.1).
 */
export function denyUnseenHookCommand(node: string, adapterExecutable: string): string {
  return [node, adapterExecutable, 'hook', '--deny-unseen'].map(shellWord).join(' ');
}

/**
 * The `hook --deny-unseen` verb. claude matches a deny rule against the command's words as it reads
 * them, and in its bypass mode runs what it is unsure of: under `Bash(git push:*)` it ran
 * `git $'push'`, `git {push,origin}`, `git pus?`, `sh -c 'git push'`, `eval 'git push'` and
 * `$(echo git) push` unrecorded. While deny rules exist, this hook blocks every Bash command whose
 * reading is not sure (a word the shell expands, a substitution, a wrapper or a shell, a keyword, a
 * builtin that runs code): the seam's one reading, the one the Codex adapter's hook applies, so each
 * such call is a refusal claude lists. A call it cannot read is blocked too.
 */
export function runDenyUnseenHook(stdin: Buffer): number {
  let why: string | undefined;
  try {
    const input = JSON.parse(stdin.toString('utf8')) as { tool_name?: unknown; tool_input?: { command?: unknown } | null };
    if (input.tool_name !== 'Bash') return 0;
    const command = input.tool_input?.command;
    why = typeof command === 'string' ? unjudgeableUnderDeny(command) : 'the Bash call carries no command to read';
  } catch (error) {
    why = `the hook could not read the call (${(error as Error).message})`;
  }
  if (why === undefined) return 0;
  process.stderr.write(`statecraft: denied unseen while deny rules are in force: ${why}\n`);
  return BLOCK;
}
