import { sendJson, startScriptedModelServer } from '@statecraft/adapter';
import type { ScriptedExchange, ScriptedModelDouble } from '@statecraft/adapter';
import type { Scenario } from './scenario.js';
import { messageFor, sseEventsFor } from './sse.js';

/** One request the provider made, as the double saw it: what was asked and what was answered. */
export interface DoubleRequestLog {
  /** The scenario that answered (chosen by the opaque prefix of the base URL). */
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

/** The double: `baseUrl` is http://127.0.0.1:<port> — give it to the provider as ANTHROPIC_BASE_URL; `baseUrlFor(name)` is `<baseUrl>/<token>`, an opaque token per scenario and run. */
export type ModelDouble = ScriptedModelDouble<DoubleRequestLog>;

/** The dummy credential the provider is given: a test credential, never a real key. */
export const MODEL_DOUBLE_API_KEY = 'sk-ant-statecraft-model-double-test-credential';

/** The reply index is the number of assistant turns so far, so a retried request gets the same reply. */
function assistantTurns(messages: unknown): number {
  if (!Array.isArray(messages)) return 0;
  return messages.filter((m) => typeof m === 'object' && m !== null && (m as { role?: unknown }).role === 'assistant').length;
}

/** One request answered in the Messages API's shapes, and logged. */
function answerMessages({ request, response, body, scenario, path, requestNumber }: ScriptedExchange<Scenario>, requests: DoubleRequestLog[]): void {
  const model = typeof body.model === 'string' ? body.model : null;
  const stream = body.stream === true;
  const mainLoop = Array.isArray(body.tools) && body.tools.length > 0;
  const turn = assistantTurns(body.messages);
  const log: DoubleRequestLog = { scenario: scenario.name, method: request.method ?? 'GET', path, stream, model, mainLoop, turn, answer: 'not-found' };
  requests.push(log);

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
}

/**
 * Starts a scripted Anthropic Messages API server on 127.0.0.1 at an ephemeral port
 * (docs/facts.md item 3), on the seam's scripted-model plumbing. Main-loop requests get the
 * scenario's replies in order; anything else the provider asks for (a title, token counting,
 * probes) gets a short, sensible answer and is logged. Several scenarios can share one server:
 * each answers under its own base URL (`baseUrlFor`).
 */
export async function startModelDouble(scenarios: Scenario | readonly Scenario[]): Promise<ModelDouble> {
  const requests: DoubleRequestLog[] = [];
  const server = await startScriptedModelServer(scenarios, {
    answer: (exchange) => answerMessages(exchange, requests),
    internalErrorBody: (message) => ({ type: 'error', error: { type: 'api_error', message } }),
  });
  return { baseUrl: server.origin, baseUrlFor: (name) => server.scenarioOrigin(name), requests, stop: () => server.stop() };
}
