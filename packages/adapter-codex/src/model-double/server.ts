import { randomBytes } from 'node:crypto';
import { sendJson, startScriptedModelServer } from '@statecraft/adapter';
import type { ScriptedExchange, ScriptedModelDouble } from '@statecraft/adapter';
import type { Scenario } from './scenario.js';
import { sseEventsFor } from './sse.js';

/** One request the provider made, as the double saw it: what was asked and what was answered. */
export interface DoubleRequestLog {
  /** The scenario that answered (chosen by the opaque prefix of the base URL). */
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

/**
 * The double: `baseUrl` is http://127.0.0.1:<port>/v1 — give it to the adapter as OPENAI_BASE_URL;
 * `baseUrlFor(name)` is `http://127.0.0.1:<port>/<token>/v1`, the token opaque and drawn per run.
 */
export interface ModelDouble extends ScriptedModelDouble<DoubleRequestLog> {
  /**
   * The credential the provider is given as OPENAI_API_KEY: a test credential drawn per run, never a
   * real key, and never a fixed string a provider could recognise the suite by (hostile finding C6).
   */
  apiKey: string;
}

/** The reply index is the number of tool calls already made (function or freeform), so a retried request gets the same reply. */
function functionCalls(input: unknown): number {
  if (!Array.isArray(input)) return 0;
  return input.filter((item) => {
    const type = typeof item === 'object' && item !== null ? (item as { type?: unknown }).type : undefined;
    return type === 'function_call' || type === 'custom_tool_call';
  }).length;
}

/** The last unified-exec session codex reported in a tool output ("… session ID <n> …"), or 0 when none. */
function lastSessionId(input: unknown): number {
  if (!Array.isArray(input)) return 0;
  const outputs = input
    .filter(
      (item): item is { type: string; output?: unknown } =>
        typeof item === 'object' && item !== null && (item as { type?: unknown }).type === 'function_call_output',
    )
    .map((item) => (typeof item.output === 'string' ? item.output : JSON.stringify(item.output ?? '')));
  const ids = [...outputs.join('\n').matchAll(/session ID (\d+)/g)].map((match) => Number(match[1]));
  return ids.at(-1) ?? 0;
}

/** One request answered in the Responses API's shapes, and logged. */
function answerResponses(
  { request, response, body, scenario, path, requestNumber }: ScriptedExchange<Scenario>,
  apiKey: string,
  requests: DoubleRequestLog[],
): void {
  const turn = functionCalls(body.input);
  const log: DoubleRequestLog = {
    scenario: scenario.name,
    method: request.method ?? 'GET',
    path,
    stream: body.stream === true,
    model: typeof body.model === 'string' ? body.model : null,
    authorized: request.headers.authorization === `Bearer ${apiKey}`,
    turn,
    answer: 'not-found',
  };
  requests.push(log);
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
  for (const event of sseEventsFor(reply, scenario.usage, requestNumber, lastSessionId(body.input))) response.write(event);
  response.end();
}

/**
 * Starts a scripted OpenAI Responses-API server on 127.0.0.1 at an ephemeral port (docs/facts.md
 * item 20), on the seam's scripted-model plumbing. `POST /v1/responses` gets the scenario's
 * replies in order as server-sent events; a `hang` reply holds the request open; an `http-error`
 * reply answers the status with an error body. Several scenarios share one server, each under its
 * own base URL (`baseUrlFor`); the key it expects is drawn per run (`apiKey`).
 */
export async function startModelDouble(scenarios: Scenario | readonly Scenario[]): Promise<ModelDouble> {
  const requests: DoubleRequestLog[] = [];
  const apiKey = `sk-${randomBytes(24).toString('hex')}`;
  const server = await startScriptedModelServer(scenarios, {
    answer: (exchange) => answerResponses(exchange, apiKey, requests),
    internalErrorBody: (message) => ({ error: { type: 'server_error', message } }),
  });
  return { baseUrl: `${server.origin}/v1`, baseUrlFor: (name) => `${server.scenarioOrigin(name)}/v1`, apiKey, requests, stop: () => server.stop() };
}
