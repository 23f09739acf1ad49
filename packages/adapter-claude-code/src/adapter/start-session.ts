import { appliedPermissionMode, openSession } from '@statecraft/adapter';
import type { Manifest } from '@statecraft/adapter';
import { buildClaudeArgv, CLAUDE_PERMISSION_MODE, type ClaudePermissionMode } from './argv.js';
import { CLAUDE_CONFIG_VARIABLE, makePrivateConfigDirectory } from './config-directory.js';
import { denyUnseenHookCommand } from './deny-unseen-hook.js';
import { unmatchedDenyRule } from './unmatched-deny-rule.js';
import type { EventWriter } from './event-writer.js';
import { NativeStreamMapper } from './native-stream-mapper.js';
import { CLAUDE_COMMAND, resolveClaude } from './provider.js';
import { runSession } from './run-session.js';
import { settingsDocumentFor } from './settings-document.js';
import { writePrivateSettingsFile } from './settings-file.js';

/**
 * One adapter invocation: request → provider → settings file and private configuration directory → argv → session. Every failure
 * before claude starts is still spoken in the protocol (an init, then an `error` event) so the
 * supervisor records why (R5.4: fails visibly, never widened).
 */
export async function startSession(manifest: Manifest, requestPath: string, prompt: Buffer, writer: EventWriter, adapterExecutable: string): Promise<number> {
  const opened = openSession(manifest, CLAUDE_COMMAND.command, requestPath, prompt, writer);
  if (opened.kind === 'failed') return opened.exitCode;
  const { adapter, request, requested, fail } = opened;
  const unmatched = unmatchedDenyRule(request.limits.deny);
  if (unmatched !== undefined) return fail('invocation-refused', unmatched);
  const provider = await resolveClaude(request.provider?.executable ?? null, process.env, request.knownDigests ?? []);
  if (provider.kind === 'not-found') return fail('provider-not-found', provider.message);
  const settings = writePrivateSettingsFile(settingsDocumentFor(request.limits, denyUnseenHookCommand(process.execPath, adapterExecutable)), request.workspace);
  if (settings.kind === 'refused') return fail('settings-refused', settings.message, provider.identity);
  let configDirectory: string;
  try {
    configDirectory = makePrivateConfigDirectory(settings.directory, process.env.HOME);
  } catch (error) {
    await settings.remove();
    return fail('settings-refused', `the private Claude configuration directory could not be made (${(error as Error).message})`, provider.identity);
  }
  // Inside the evidence boundary bwrap keeps every write in the workspace (R12), so edits there need
  // no per-command rule, and in the `sandboxed` mode no tool needs one; without it claude's own
  // permission prompts are all that stands (default).
  const bounded = request.boundary?.mechanism === 'bwrap';
  const permissionMode: ClaudePermissionMode = !bounded ? 'default' : appliedPermissionMode(request) === 'sandboxed' ? 'bypass' : 'accept-edits';
  const argv = buildClaudeArgv({
    settingsPath: settings.path,
    maxTurns: request.limits.maxTurns,
    removeTools: request.limits.removeTools,
    permissionMode,
    denyRules: request.limits.deny,
  });
  if (argv.kind === 'refused') {
    await settings.remove();
    return fail('invocation-refused', argv.message, provider.identity);
  }
  const mapper = new NativeStreamMapper({
    adapter,
    provider: provider.identity,
    requested,
    // workspace-write is applied only when claude's init confirms the mode asked for (R2.4).
    applied: manifest.capabilities.filter((token) => token !== 'workspace-write'),
    permissionModeAsked: permissionMode === 'default' ? null : CLAUDE_PERMISSION_MODE[permissionMode],
  });
  return runSession({
    executable: provider.executable,
    argv: argv.argv,
    workspace: request.workspace,
    prompt,
    settings,
    mapper,
    writer,
    // Claude's own state goes to the private directory, never the operator's ~/.claude (config-directory.ts).
    // claude refuses its bypass mode as root unless told it is sandboxed (docs/facts.md item 24b):
    // here it is, by the boundary, which is the only case the mode is asked for.
    environment: { ...process.env, [CLAUDE_CONFIG_VARIABLE]: configDirectory, ...(permissionMode === 'bypass' ? { IS_SANDBOX: '1' } : {}) },
  });
}
