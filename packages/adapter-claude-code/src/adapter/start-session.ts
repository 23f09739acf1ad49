import { openSession } from '@statecraft/adapter';
import type { Manifest } from '@statecraft/adapter';
import { buildClaudeArgv } from './argv.js';
import { CLAUDE_CONFIG_VARIABLE, makePrivateConfigDirectory } from './config-directory.js';
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
export async function startSession(manifest: Manifest, requestPath: string, prompt: Buffer, writer: EventWriter): Promise<number> {
  const opened = openSession(manifest, CLAUDE_COMMAND.command, requestPath, prompt, writer);
  if (opened.kind === 'failed') return opened.exitCode;
  const { adapter, request, requested, fail } = opened;
  const provider = await resolveClaude(request.provider?.executable ?? null, process.env, request.knownDigests ?? []);
  if (provider.kind === 'not-found') return fail('provider-not-found', provider.message);
  const settings = writePrivateSettingsFile(settingsDocumentFor(request.limits), request.workspace);
  if (settings.kind === 'refused') return fail('settings-refused', settings.message, provider.identity);
  let configDirectory: string;
  try {
    configDirectory = makePrivateConfigDirectory(settings.directory, process.env.HOME);
  } catch (error) {
    await settings.remove();
    return fail('settings-refused', `the private Claude configuration directory could not be made (${(error as Error).message})`, provider.identity);
  }
  // Inside the evidence boundary bwrap keeps every write in the workspace (R12), so edits there need
  // no per-command rule; without it claude's own permission prompts are all that stands (default).
  const bounded = request.boundary?.mechanism === 'bwrap';
  const argv = buildClaudeArgv({
    settingsPath: settings.path,
    maxTurns: request.limits.maxTurns,
    removeTools: request.limits.removeTools,
    permissionMode: bounded ? 'accept-edits' : 'default',
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
    acceptEditsAsked: bounded,
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
    environment: { ...process.env, [CLAUDE_CONFIG_VARIABLE]: configDirectory },
  });
}
