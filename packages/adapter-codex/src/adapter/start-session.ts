import { appliedPermissionMode, openSession } from '@statecraft/adapter';
import type { EventWriter, Manifest, Request } from '@statecraft/adapter';
import { buildCodexArgv } from './argv.js';
import { makePrivateCodexHome } from './codex-home.js';
import { configDocumentFor, DEFAULT_OPENAI_BASE_URL } from './config-document.js';
import { encodeHookPolicy } from './hook-policy.js';
import { NativeStreamMapper } from './native-stream-mapper.js';
import type { CodexConfiguration } from './native-stream-mapper.js';
import { CODEX_COMMAND, resolveCodex } from './provider.js';
import { runSession } from './run-session.js';
import { parseToolRules } from './tool-rules.js';

/** A word for a POSIX shell: single-quoted, any single quote closed and escaped. */
function shellWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * What the request asks that Codex cannot do is refused before codex starts, never dropped: a turn
 * cap (Codex has none, docs/facts.md item 22), tool removal (not measured), and a rule for a tool
 * other than Bash (tool-rules.ts).
 */
function unsupportedLimit(limits: Request['limits']): string | undefined {
  if (limits.maxTurns !== null)
    return `request limits.maxTurns is ${limits.maxTurns}: Codex has no turn cap (the adapter does not declare turn-limit); remove --max-turns or use another adapter`;
  if (limits.removeTools.length > 0)
    return `request limits.removeTools names ${limits.removeTools.join(', ')}: removing a tool from a Codex session is not measured; deny it with a rule instead`;
  for (const [field, rules] of [
    ['deny', limits.deny],
    ['allow', limits.allow],
  ] as const) {
    const parsed = parseToolRules(rules, field);
    if (parsed.kind === 'refused') return parsed.message;
  }
  const hookTool = limits.hooks.find((hook) => hook.tool !== 'Bash');
  if (hookTool !== undefined) return `request limits.hooks names the tool ${hookTool.tool}; the Codex adapter runs hooks for Bash only`;
  return undefined;
}

/**
 * One adapter invocation: request → provider → private CODEX_HOME with its config document →
 * argv → session. Every failure before codex starts is still spoken in the protocol (an init, then
 * an `error` event) so the supervisor records why (R5.4: fails visibly, never widened).
 */
export async function startSession(manifest: Manifest, requestPath: string, prompt: Buffer, writer: EventWriter, adapterExecutable: string): Promise<number> {
  const opened = openSession(manifest, CODEX_COMMAND.command, requestPath, prompt, writer);
  if (opened.kind === 'failed') return opened.exitCode;
  const { adapter, request, requested, fail } = opened;
  const unsupported = unsupportedLimit(request.limits);
  if (unsupported !== undefined) return fail('invocation-refused', unsupported);
  const provider = await resolveCodex(request.provider?.executable ?? null, process.env, request.knownDigests ?? []);
  if (provider.kind === 'not-found') return fail('provider-not-found', provider.message);

  const baseUrl = process.env.OPENAI_BASE_URL !== undefined && process.env.OPENAI_BASE_URL !== '' ? process.env.OPENAI_BASE_URL : DEFAULT_OPENAI_BASE_URL;
  const { deny, allow, hooks } = request.limits;
  // Under strict the hook enforces the allowlist whatever it holds: none allows no command (decision 0341).
  const mode = appliedPermissionMode(request);
  const hookEnforces = mode === 'strict' || deny.length > 0 || allow.length > 0 || hooks.length > 0;
  const configuration: CodexConfiguration = {
    model: 'provider-default',
    sandboxMode: 'workspace-write',
    approvalPolicy: 'never',
    baseUrl,
    ttySessions: hookEnforces ? 'disabled' : 'enabled',
  };
  const home = await makePrivateCodexHome(process.env, request.workspace, ({ channel }) => {
    const policy = encodeHookPolicy({ mode, deny, allow, hooks: hooks.map((hook) => ({ tool: hook.tool, command: hook.command })), channel });
    const hookCommand = [process.execPath, adapterExecutable, 'hook', '--policy', policy].map(shellWord).join(' ');
    return configDocumentFor({ configuration, hookCommand });
  });
  if (home.kind === 'refused') return fail('codex-home-refused', home.message, provider.identity);
  const mapper = new NativeStreamMapper({ adapter, provider: provider.identity, requested, applied: [...manifest.capabilities], configuration });
  return runSession({
    executable: provider.executable,
    argv: buildCodexArgv(request.workspace),
    workspace: request.workspace,
    prompt,
    home,
    mapper,
    writer,
    // Codex's TMPDIR is its own, beside CODEX_HOME (codex-home.ts); nothing else of the constructed environment changes.
    environment: { ...process.env, CODEX_HOME: home.codexHome, TMPDIR: home.temporaryDirectory },
  });
}
