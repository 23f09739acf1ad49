import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Scenario } from './scenario.js';
import { messageFor, sseEventsFor } from './sse.js';

/** One request the provider made, as the double saw it: what was asked and what was answered. */
export interface DoubleRequestLog {
  /** The scenario that answered (chosen by the `/s/<name>` prefix of the base URL). */
  scenario: string;
  method: string;
  path: string;
  stream: boolean;
  model: string | null;
  /** A main-loop request carries tools; those take the scenario's replies in order. */
  mainLoop: boolean;
  /** Assistant turns already in the conversation: which reply this request gets. */
  turn: number;
  answer: 'reply' | 'final-text' | 'hang' | 'http-error' | 'auxiliary' | 'not-found';
}

export interface ModelDouble {
  /** `http://127.0.0.1:<port>`: give it to the provider as ANTHROPIC_BASE_URL; the first scenario answers. */
  baseUrl: string;
  /** The base URL at which the named scenario answers: `<baseUrl>/s/<name>`. */
  baseUrlFor(name: string): string;
  /** Every request, in arrival order. */
  requests: DoubleRequestLog[];
  stop(): Promise<void>;
}

/** The dummy credential the provider is given: a test credential, never a real key (issue 4 item 5). */
export const MODEL_DOUBLE_API_KEY = 'sk-ant-statecraft-model-double-test-credential';

interface MessagesBody {
  model?: unknown;
  stream?: unknown;
  tools?: unknown;
  messages?: unknown;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string): MessagesBody {
  try {
    const json: unknown = JSON.parse(text);
    return typeof json === 'object' && json !== null ? json : {};
  } catch {
    return {};
  }
}

/** The reply index is the number of assistant turns so far, so a retried request gets the same reply. */
function assistantTurns(messages: unknown): number {
  if (!Array.isArray(messages)) return 0;
  return messages.filter((m) => typeof m === 'object' && m !== null && (m as { role?: unknown }).role === 'assistant').length;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** `/s/<name>/v1/messages` → that scenario and `/v1/messages`; an unknown name is answered by nothing (404). */
function route(path: string, byName: ReadonlyMap<string, Scenario>, fallback: Scenario): { scenario: Scenario; path: string } {
  const match = /^\/s\/([a-z0-9-]+)(\/.*)?$/.exec(path);
  if (match === null) return { scenario: fallback, path };
  const scenario = byName.get(match[1] ?? '');
  return scenario === undefined ? { scenario: fallback, path: '/unknown-scenario' } : { scenario, path: match[2] ?? '/' };
}

/**
 * Starts a scripted Anthropic Messages API server on 127.0.0.1 at an ephemeral port
 * (docs/facts.md item 3). Main-loop requests get the scenario's replies in order; anything else the
 * provider asks for (a title, token counting, probes) gets a short, sensible answer and is logged.
 * Several scenarios can share one server: each answers under its own base URL (`baseUrlFor`).
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
      const text = await readBody(request);
      const body = parseBody(text);
      const routed = route((request.url ?? '/').split('?')[0] ?? '/', byName, fallback);
      const { scenario, path } = routed;
      const model = typeof body.model === 'string' ? body.model : null;
      const stream = body.stream === true;
      const mainLoop = Array.isArray(body.tools) && body.tools.length > 0;
      const turn = assistantTurns(body.messages);
      const log: DoubleRequestLog = { scenario: scenario.name, method: request.method ?? 'GET', path, stream, model, mainLoop, turn, answer: 'not-found' };
      requests.push(log);
      requestNumber += 1;

      if (request.method === 'POST' && path === '/v1/messages/count_tokens') {
        log.answer = 'auxiliary';
        sendJson(response, 200, { input_tokens: scenario.usage.inputTokens });
        return;
      }
      if (request.method !== 'POST' || path !== '/v1/messages') {
        // HEAD/GET probes and anything unknown: answered plainly, never hung.
        log.answer = request.method === 'HEAD' || request.method === 'GET' ? 'auxiliary' : 'not-found';
        sendJson(response, request.method === 'HEAD' || request.method === 'GET' ? 200 : 404, {});
        return;
      }
      const scripted = mainLoop ? scenario.replies[turn] : undefined;
      if (scripted?.kind === 'hang') {
        log.answer = 'hang';
        return; // The socket stays open until the provider dies or the double stops.
      }
      if (scripted?.kind === 'http-error') {
        log.answer = 'http-error';
        sendJson(response, scripted.status, { type: 'error', error: { type: scripted.errorType, message: scripted.message } });
        return;
      }
      const reply = scripted ?? { kind: 'text' as const, text: mainLoop ? scenario.finalText : 'Statecraft model double.' };
      log.answer = scripted !== undefined ? 'reply' : mainLoop ? 'final-text' : 'auxiliary';
      const message = messageFor(reply, model ?? 'claude-model-double', scenario.usage, requestNumber);
      if (!stream) {
        sendJson(response, 200, message);
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const event of sseEventsFor(message)) response.write(event);
      response.end();
    })().catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { type: 'error', error: { type: 'api_error', message: String(error) } });
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
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    baseUrlFor(name: string) {
      if (!byName.has(name)) throw new Error(`the model double has no scenario named ${name}`);
      return `${baseUrl}/s/${name}`;
    },
    requests,
    async stop() {
      // A hung reply holds its socket open: destroy them, or close() would wait forever.
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
