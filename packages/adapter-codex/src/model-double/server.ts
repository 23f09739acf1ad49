import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Scenario } from './scenario.js';
import { sseEventsFor } from './sse.js';

/** One request the provider made, as the double saw it: what was asked and what was answered. */
export interface DoubleRequestLog {
  /** The scenario that answered (chosen by the `/s/<name>` prefix of the base URL). */
  scenario: string;
  method: string;
  path: string;
  stream: boolean;
  model: string | null;
  /** Bearer credential sent, as seen: whether it was the test key (never the key itself in a log). */
  authorized: boolean;
  /** Function calls already in the conversation: which reply this request gets. */
  turn: number;
  answer: 'reply' | 'final-text' | 'hang' | 'http-error' | 'not-found';
}

export interface ModelDouble {
  /** `http://127.0.0.1:<port>/v1`: give it to the adapter as OPENAI_BASE_URL; the first scenario answers. */
  baseUrl: string;
  /** The base URL at which the named scenario answers: `http://127.0.0.1:<port>/s/<name>/v1`. */
  baseUrlFor(name: string): string;
  /** Every request, in arrival order. */
  requests: DoubleRequestLog[];
  stop(): Promise<void>;
}

/** The dummy credential the provider is given: a test credential, never a real key. */
export const MODEL_DOUBLE_API_KEY = 'sk-statecraft-codex-model-double-test-credential';

interface ResponsesBody {
  model?: unknown;
  stream?: unknown;
  input?: unknown;
}

async function readBody(request: IncomingMessage): Promise<ResponsesBody> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const json: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof json === 'object' && json !== null ? json : {};
  } catch {
    return {};
  }
}

/** The reply index is the number of function calls already made, so a retried request gets the same reply. */
function functionCalls(input: unknown): number {
  if (!Array.isArray(input)) return 0;
  return input.filter((item) => typeof item === 'object' && item !== null && (item as { type?: unknown }).type === 'function_call').length;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** `/s/<name>/v1/responses` → that scenario and `/v1/responses`; an unknown name is answered by nothing (404). */
function route(path: string, byName: ReadonlyMap<string, Scenario>, fallback: Scenario): { scenario: Scenario; path: string } {
  const match = /^\/s\/([a-z0-9-]+)(\/.*)?$/.exec(path);
  if (match === null) return { scenario: fallback, path };
  const scenario = byName.get(match[1] ?? '');
  return scenario === undefined ? { scenario: fallback, path: '/unknown-scenario' } : { scenario, path: match[2] ?? '/' };
}

/**
 * Starts a scripted OpenAI Responses-API server on 127.0.0.1 at an ephemeral port (docs/facts.md
 * item 20). `POST /v1/responses` gets the scenario's replies in order as server-sent events; a
 * `hang` reply holds the request open; an `http-error` reply answers the status with an error
 * body. Several scenarios share one server, each under its own base URL (`baseUrlFor`).
 */
export async function startModelDouble(scenarios: Scenario | readonly Scenario[]): Promise<ModelDouble> {
  const list: readonly Scenario[] = Array.isArray(scenarios) ? scenarios : [scenarios as Scenario];
  const byName = new Map(list.map((entry) => [entry.name, entry]));
  const fallback = list[0];
  if (fallback === undefined) throw new Error('the model double needs at least one scenario');
  const requests: DoubleRequestLog[] = [];
  const sockets = new Set<Socket>();
  let requestNumber = 0;

  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const { scenario, path } = route((request.url ?? '/').split('?')[0] ?? '/', byName, fallback);
      const turn = functionCalls(body.input);
      const log: DoubleRequestLog = {
        scenario: scenario.name,
        method: request.method ?? 'GET',
        path,
        stream: body.stream === true,
        model: typeof body.model === 'string' ? body.model : null,
        authorized: request.headers.authorization === `Bearer ${MODEL_DOUBLE_API_KEY}`,
        turn,
        answer: 'not-found',
      };
      requests.push(log);
      requestNumber += 1;
      if (request.method !== 'POST' || path !== '/v1/responses') {
        sendJson(response, 404, { error: { type: 'not_found', message: `the model double answers POST /v1/responses only, not ${log.method} ${path}` } });
        return;
      }
      const scripted = scenario.replies[turn];
      if (scripted?.kind === 'hang') {
        log.answer = 'hang';
        return; // The socket stays open until the provider dies or the double stops.
      }
      if (scripted?.kind === 'http-error') {
        log.answer = 'http-error';
        sendJson(response, scripted.status, { error: { type: scripted.errorType, message: scripted.message } });
        return;
      }
      const reply = scripted ?? { kind: 'text' as const, text: scenario.finalText };
      log.answer = scripted !== undefined ? 'reply' : 'final-text';
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const event of sseEventsFor(reply, scenario.usage, requestNumber)) response.write(event);
      response.end();
    })().catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: { type: 'server_error', message: String(error) } });
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
    baseUrl: `${origin}/v1`,
    baseUrlFor(name: string) {
      if (!byName.has(name)) throw new Error(`the model double has no scenario named ${name}`);
      return `${origin}/s/${name}/v1`;
    },
    requests,
    async stop() {
      // A hung reply holds its socket open: destroy them, or close() would wait forever.
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
