import type { CapabilityToken } from '../capabilities.js';
import { sha256Hex } from '../content-digest.js';
import type { ProviderIdentity } from '../protocol/events.js';
import type { Manifest } from '../protocol/manifest.js';
import type { Request } from '../protocol/request.js';
import type { EventWriter } from './event-writer.js';
import { failureBeforeProvider, unresolvedProvider } from './failure-before-provider.js';
import { readRequest } from './read-request.js';

/** Speaks a failure before the provider started (an init, then an `error`) and answers the exit code. */
type FailBeforeProvider = (code: string, message: string, provider?: ProviderIdentity) => number;

export type OpenedSession =
  | { kind: 'opened'; adapter: { name: string; version: string }; request: Request; requested: CapabilityToken[]; fail: FailBeforeProvider }
  | { kind: 'failed'; exitCode: number };

/**
 * The first steps of every adapter invocation: the request read and checked, the prompt on stdin
 * matched against its digest and length. A failure is still spoken in the protocol (an init, then
 * an `error` event) so the supervisor records why (R5.4: fails visibly, never widened); the `fail`
 * handed back does the same for the adapter's own later steps.
 */
export function openSession(manifest: Manifest, providerName: string, requestPath: string, prompt: Buffer, writer: EventWriter): OpenedSession {
  const adapter = { name: manifest.name, version: manifest.version };
  const failWith =
    (requested: CapabilityToken[]): FailBeforeProvider =>
    (code, message, provider = unresolvedProvider(providerName)) => {
      failureBeforeProvider(adapter, provider, requested, code, message).forEach((event) => writer.write(event));
      return 1;
    };
  const reading = readRequest(requestPath);
  if (reading.kind === 'refused') return { kind: 'failed', exitCode: failWith([])('request-invalid', reading.message) };
  const { request } = reading;
  const requested = [...new Set([...request.capabilities.required, ...request.capabilities.preferred])];
  const fail = failWith(requested);
  if (sha256Hex(prompt) !== request.prompt.sha256 || prompt.length !== request.prompt.bytes) {
    return { kind: 'failed', exitCode: fail('prompt-mismatch', `the prompt on stdin (${prompt.length} bytes) does not match the request's digest and length`) };
  }
  return { kind: 'opened', adapter, request, requested, fail };
}
