import { readFile } from 'node:fs/promises';
import { RequestSchema, describeSchemaIssues, sha256Hex } from '@statecraft/adapter';
import type { CapabilityToken, Manifest, Request } from '@statecraft/adapter';
import { buildClaudeArgv } from './argv.js';
import type { EventWriter } from './event-writer.js';
import { failureBeforeProvider, UNRESOLVED_PROVIDER } from './fallback-events.js';
import { NativeStreamMapper } from './native-stream-mapper.js';
import { resolveProvider } from './provider.js';
import { runSession } from './run-session.js';
import { settingsDocumentFor } from './settings-document.js';
import { writePrivateSettingsFile } from './settings-file.js';

type ReadRequest = { kind: 'read'; request: Request } | { kind: 'refused'; message: string };

async function readRequest(path: string): Promise<ReadRequest> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    return { kind: 'refused', message: `${path}: cannot read the request as JSON (${(error as Error).message})` };
  }
  const parsed = RequestSchema.safeParse(json);
  return parsed.success ? { kind: 'read', request: parsed.data } : { kind: 'refused', message: describeSchemaIssues(path, parsed.error) };
}

/**
 * One adapter invocation: request → provider → settings file → argv → session. Every failure
 * before claude starts is still spoken in the protocol (an init, then an `error` event) so the
 * supervisor records why (R5.4: fails visibly, never widened).
 */
export async function startSession(manifest: Manifest, requestPath: string, prompt: Buffer, writer: EventWriter): Promise<number> {
  const adapter = { name: manifest.name, version: manifest.version };
  const fail = (requested: CapabilityToken[], code: string, message: string, provider = UNRESOLVED_PROVIDER): number => {
    failureBeforeProvider(adapter, provider, requested, code, message).forEach((event) => writer.write(event));
    return 1;
  };
  const reading = await readRequest(requestPath);
  if (reading.kind === 'refused') return fail([], 'request-invalid', reading.message);
  const { request } = reading;
  const requested = [...new Set([...request.capabilities.required, ...request.capabilities.preferred])];
  if (sha256Hex(prompt) !== request.prompt.sha256 || prompt.length !== request.prompt.bytes) {
    return fail(requested, 'prompt-mismatch', `the prompt on stdin (${prompt.length} bytes) does not match the request's digest and length`);
  }
  const provider = await resolveProvider(request.provider?.executable ?? null, process.env, request.knownDigests ?? []);
  if (provider.kind === 'not-found') return fail(requested, 'provider-not-found', provider.message);
  const settings = await writePrivateSettingsFile(settingsDocumentFor(request.limits), request.workspace);
  if (settings.kind === 'refused') return fail(requested, 'settings-refused', settings.message, provider.identity);
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
    return fail(requested, 'invocation-refused', argv.message, provider.identity);
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
    environment: process.env,
  });
}
