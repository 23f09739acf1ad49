import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the scripted server hands it to the provider's model double to answer. */
export interface ScriptedExchange<S> {
  request: IncomingMessage;
  response: ServerResponse;
  /** The JSON body, or `{}` where there was none or it was not a JSON object. */
  body: Record<string, unknown>;
  /** The scenario that answers (chosen by the opaque `/<token>` prefix of the path). */
  scenario: S;
  /** The path with any scenario token taken off (`/unknown-scenario` for a token nobody answers). */
  path: string;
  /** This request's number on the server, from 1: a reply id that differs between requests. */
  requestNumber: number;
}

export interface ScriptedModelServerOptions<S> {
  /** Answers one request; a thrown error or rejection becomes a 500 (`internalErrorBody`), or a cut connection once headers are sent. */
  answer(exchange: ScriptedExchange<S>): void | Promise<void>;
  /** The 500 body in the provider's error shape. */
  internalErrorBody(message: string): unknown;
}

/** A provider's model double, as its tests and the suite use it; `Log` is what it records of each request. */
export interface ScriptedModelDouble<Log> {
  /** Where the provider is pointed (its base-URL variable); the first scenario answers there. */
  baseUrl: string;
  /** The base URL at which the named scenario answers. */
  baseUrlFor(name: string): string;
  /** Every request, in arrival order. */
  requests: Log[];
  stop(): Promise<void>;
}

export interface ScriptedModelServer {
  /** `http://127.0.0.1:<port>`: the first scenario answers here. */
  origin: string;
  /** `<origin>/<token>`: where the named scenario answers; an unknown name throws (it is the test's own mistake). */
  scenarioOrigin(name: string): string;
  stop(): Promise<void>;
}

async function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const json: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** A scenario's token: 32 hex digits, random per server. */
const SCENARIO_TOKEN = /^\/([0-9a-f]{32})(\/.*)?$/;

/** `/<token>/v1/…` → that scenario and `/v1/…`; an unknown token is answered by nothing (the double's 404). */
function route<S>(path: string, byToken: ReadonlyMap<string, S>, fallback: S): { scenario: S; path: string } {
  const match = SCENARIO_TOKEN.exec(path);
  if (match === null) return { scenario: fallback, path };
  const scenario = byToken.get(match[1] ?? '');
  return scenario === undefined ? { scenario: fallback, path: '/unknown-scenario' } : { scenario, path: match[2] ?? '/' };
}

/**
 * The HTTP plumbing every provider's model double shares: a server on 127.0.0.1 at an ephemeral
 * port, one scenario per path prefix (the first answers at the root), the JSON body read, and a
 * stop that does not wait for a reply held open on purpose. The prefix is an opaque token drawn
 * per server, never the scenario's name: what the provider is pointed at must not tell it which
 * case of the suite it is in, or a provider could behave only when tested (hostile finding C6).
 * What is answered, in which wire format, is the provider's double's own (`answer`).
 */
export async function startScriptedModelServer<S extends { name: string }>(
  scenarios: S | readonly S[],
  options: ScriptedModelServerOptions<S>,
): Promise<ScriptedModelServer> {
  const list: readonly S[] = Array.isArray(scenarios) ? scenarios : [scenarios as S];
  const tokenOf = new Map(list.map((entry) => [entry.name, randomBytes(16).toString('hex')]));
  const byToken = new Map(list.map((entry) => [tokenOf.get(entry.name) ?? '', entry]));
  const fallback = list[0];
  if (fallback === undefined) throw new Error('the model double needs at least one scenario');
  const sockets = new Set<Socket>();
  let requestNumber = 0;

  // node:http is loaded when a model double starts, not when the seam is imported: the CLI bundles
  // the seam, and a verb that starts no model double should not pay for (or load) an HTTP stack.
  const { createServer } = await import('node:http');
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readJsonBody(request);
      const { scenario, path } = route((request.url ?? '/').split('?')[0] ?? '/', byToken, fallback);
      requestNumber += 1;
      await options.answer({ request, response, body, scenario, path, requestNumber });
    })().catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, options.internalErrorBody(String(error)));
      else response.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    scenarioOrigin(name: string) {
      const token = tokenOf.get(name);
      if (token === undefined) throw new Error(`the model double has no scenario named ${name}`);
      return `${origin}/${token}`;
    },
    async stop() {
      // A hung reply holds its socket open: destroy them, or close() would wait forever.
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
