import { describe, expect, it } from 'vitest';
import { ScenarioSchema, startModelDouble } from '@statecraft/adapter-claude-code';

// The scripted Anthropic Messages API server the live tests point claude at (docs/facts.md item 3).

const scenario = ScenarioSchema.parse({
  name: 'double-test',
  description: 'one tool call, then an error, then a hang',
  replies: [
    { kind: 'tool-use', tool: 'Bash', input: { command: 'echo hi' } },
    { kind: 'http-error', status: 400, errorType: 'invalid_request_error', message: 'no' },
    { kind: 'hang' },
  ],
});

const tools = [{ name: 'Bash', input_schema: {} }];
const turns = (n: number) =>
  Array.from({ length: n }, () => [
    { role: 'user', content: 'x' },
    { role: 'assistant', content: 'y' },
  ]).flat();

async function post(baseUrl: string, body: unknown, signal?: AbortSignal) {
  return fetch(`${baseUrl}/v1/messages`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
    ...(signal ? { signal } : {}),
  });
}

describe('the model double', () => {
  it('listens on 127.0.0.1 only, at an ephemeral port', async () => {
    const double = await startModelDouble(scenario);
    try {
      expect(double.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await double.stop();
    }
  });

  it('streams a tool call as the Messages API event sequence, chosen by the number of assistant turns', async () => {
    const double = await startModelDouble(scenario);
    try {
      const response = await post(double.baseUrl, { model: 'm', stream: true, tools, messages: turns(0) });
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      const names = [...(await response.text()).matchAll(/^event: (\w+)$/gm)].map((match) => match[1]);
      expect(names).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    } finally {
      await double.stop();
    }
  });

  it('answers a scripted HTTP error in the API error shape, and past the script answers the final text', async () => {
    const double = await startModelDouble(scenario);
    try {
      const error = await post(double.baseUrl, { model: 'm', stream: true, tools, messages: turns(1) });
      expect(error.status).toBe(400);
      expect(await error.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'no' } });
      const plain = await post(double.baseUrl, { model: 'm', tools, messages: turns(5) });
      expect(await plain.json()).toMatchObject({ type: 'message', content: [{ type: 'text', text: 'Scenario finished.' }], stop_reason: 'end_turn' });
      expect(double.requests.map((request) => request.answer)).toEqual(['http-error', 'final-text']);
    } finally {
      await double.stop();
    }
  });

  it('hangs a scripted request until stopped, and answers requests without tools as auxiliary without using the script', async () => {
    const double = await startModelDouble(scenario);
    const hung = post(double.baseUrl, { model: 'm', stream: true, tools, messages: turns(2) }).then(
      () => 'answered',
      () => 'cut',
    );
    const auxiliary = await post(double.baseUrl, { model: 'm', messages: turns(2) });
    expect(auxiliary.status).toBe(200);
    const raced = await Promise.race([hung, new Promise((resolve) => setTimeout(() => resolve('still hanging'), 300))]);
    expect(raced).toBe('still hanging');
    await double.stop();
    expect(await hung).toBe('cut');
    expect(double.requests.map((request) => request.answer)).toEqual(['hang', 'auxiliary']);
  });
});
