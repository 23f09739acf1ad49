import { afterEach, describe, expect, it } from 'vitest';
import { loadScenarios, scenariosDirectory, startModelDouble } from '@statecraft/adapter-codex';
import type { ModelDouble } from '@statecraft/adapter-codex';

// The Responses-API model double on its own, spoken to over real HTTP on 127.0.0.1: what codex
// receives (docs/facts.md item 20) for each kind of scripted reply.

let double: ModelDouble | undefined;
afterEach(async () => {
  await double?.stop();
  double = undefined;
});

async function post(scenario: string, input: unknown[] = [], signal?: AbortSignal): Promise<Response> {
  if (double === undefined) throw new Error('no double');
  return fetch(`${double.baseUrlFor(scenario)}/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${double.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'any-model', stream: true, input }),
    ...(signal === undefined ? {} : { signal }),
  });
}

function eventTypes(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => (JSON.parse(line.slice(6)) as { type: string }).type);
}

describe('the Codex model double', () => {
  it('loads every scenario file under qualification/scenarios/codex', async () => {
    const names = (await loadScenarios(scenariosDirectory())).map((scenario) => scenario.name);
    expect(names).toEqual([
      'attack-records',
      'completed',
      'exec-setsid',
      'exec-touch-hang',
      'exec-touch',
      'exec-work-session',
      'exec-write-outside',
      'hang',
      'http-error',
    ]);
  });

  it('answers a text reply as response.created, output_item.added, output_text.delta, output_item.done and response.completed with usage', async () => {
    double = await startModelDouble(await loadScenarios(scenariosDirectory()));
    const response = await post('completed');
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text();
    expect(eventTypes(text)).toEqual([
      'response.created',
      'response.output_item.added',
      'response.output_text.delta',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(text).toContain('"input_tokens":120');
    expect(double.requests[0]).toMatchObject({ scenario: 'completed', path: '/v1/responses', stream: true, authorized: true, turn: 0, answer: 'reply' });
  });

  it('answers an exec reply with a function_call to exec_command carrying {"cmd": …}, then the next reply once the call is in the input', async () => {
    double = await startModelDouble(await loadScenarios(scenariosDirectory()));
    const first = await (await post('exec-touch')).text();
    const done = first
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; item?: { type: string; name?: string; arguments?: string } })
      .filter((event) => event.type === 'response.output_item.done' && event.item?.type === 'function_call');
    expect(done.map((event): unknown[] => [event.item?.name, JSON.parse(event.item?.arguments ?? '{}') as unknown])).toEqual([
      ['exec_command', { cmd: 'touch statecraft-marker.txt' }],
    ]);
    const second = await (await post('exec-touch', [{ type: 'function_call' }, { type: 'function_call_output' }])).text();
    expect(second).toContain('Created statecraft-marker.txt.');
    expect(double.requests.map((request) => request.turn)).toEqual([0, 1]);
  });

  it('answers an http-error reply with its status and the error shape, and holds a hang open until stopped', async () => {
    double = await startModelDouble(await loadScenarios(scenariosDirectory()));
    const refused = await post('http-error');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: { type: 'invalid_request_error', message: 'The model double refuses this request.' } });
    const hung = await Promise.race([
      post('hang', [], AbortSignal.timeout(500))
        .then(() => 'answered')
        .catch(() => 'still waiting'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 700)),
    ]);
    expect(hung).toBe('still waiting');
    expect(double.requests.at(-1)?.answer).toBe('hang');
  });
});
