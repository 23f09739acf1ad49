import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MODEL_DOUBLE_API_KEY, loadScenario, scenarioPath, startModelDouble } from '@statecraft/adapter-claude-code';
import type { ModelDouble } from '@statecraft/adapter-claude-code';
import type { Request } from '@statecraft/adapter';
import { baseEnvironment, eventsOfType, runAdapter, sandboxMaker } from '../../fixtures/claude-code-adapter-process.js';
import type { AdapterRun, Sandbox } from '../../fixtures/claude-code-adapter-process.js';

const makeSandbox = sandboxMaker();

// The bundled adapter, run as a real process, against the real pinned `claude` talking only to
// the model double on 127.0.0.1. No network, no real credential.

let double: ModelDouble | undefined;
afterEach(async () => {
  await double?.stop();
  double = undefined;
});

async function live(scenario: string, limits: Partial<Request['limits']> = {}): Promise<{ run: AdapterRun; sandbox: Sandbox }> {
  double = await startModelDouble(await loadScenario(scenarioPath(scenario)));
  const sandbox = await makeSandbox();
  const environment = { ...baseEnvironment(sandbox), ANTHROPIC_BASE_URL: double.baseUrl, ANTHROPIC_API_KEY: MODEL_DOUBLE_API_KEY };
  return { run: await runAdapter({ sandbox, environment, limits }), sandbox };
}

function result(run: AdapterRun) {
  const last = run.events.at(-1);
  if (last?.type !== 'result') throw new Error(`the last event is not a result: ${run.stdout}\n${run.stderr}`);
  return last;
}

describe('the Claude Code adapter against the real claude and the model double', () => {
  it('maps a completed session: init first with the provider identity and tools, the allowlist not-recorded, a completed result carrying the cost (R10.2, R10.3, R10.5)', async () => {
    const { run } = await live('completed');
    const init = run.events[0];
    expect(init?.type).toBe('init');
    if (init?.type !== 'init') return;
    expect(init.provider).toMatchObject({ name: 'claude', version: '2.1.328', digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown });
    expect(init.applied.tools).toContain('Bash');
    expect(init.applied.allowlist).toBe('not-recorded');
    expect(init.detail).toMatchObject({ apiKeySource: 'ANTHROPIC_API_KEY', permissionMode: 'default' });
    expect(run.events.map((event) => event.seq)).toEqual(run.events.map((_, index) => index));
    const end = result(run);
    expect(end.terminal).toBe('completed');
    expect(end.claim).toMatchObject({ status: 'success', isError: false, reason: 'completed' });
    expect(end.cost).toEqual({ usd: expect.any(Number) as unknown });
    expect(end.cost !== 'unknown' && end.cost !== undefined && end.cost.usd > 0).toBe(true);
    expect(eventsOfType(run, 'refusal')).toHaveLength(0);
  });

  it('turns a denied Bash call into one refusal per terminal denial, verbatim, before a result whose claim is success (R10.2, R10.4)', async () => {
    const { run, sandbox } = await live('bash-touch');
    const refusals = eventsOfType(run, 'refusal');
    expect(refusals).toHaveLength(1);
    expect(refusals[0]?.tool).toBe('Bash');
    expect(refusals[0]?.verbatim).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'touch statecraft-marker.txt' } });
    // The mid-stream notice is progress, not a second refusal.
    expect(eventsOfType(run, 'progress').filter((event) => event.kind === 'permission-denied-notice')).toHaveLength(1);
    const end = result(run);
    expect(run.events.indexOf(refusals[0]!)).toBeLessThan(run.events.indexOf(end));
    expect(end.claim).toMatchObject({ status: 'success', isError: false });
    expect(existsSync(join(sandbox.workspace, 'statecraft-marker.txt'))).toBe(false);
  });

  it('lets an allowed call run in the workspace, with no refusal (R10.1 allow rules, R7.1)', async () => {
    const { run, sandbox } = await live('bash-touch', { allow: ['Bash(touch:*)'] });
    expect(eventsOfType(run, 'refusal')).toHaveLength(0);
    expect(result(run).terminal).toBe('completed');
    expect(existsSync(join(sandbox.workspace, 'statecraft-marker.txt'))).toBe(true);
  });

  it('carries a deny rule in the settings file, and it wins over an allow rule with a refusal record (R10.1, R10.3)', async () => {
    const { run, sandbox } = await live('bash-touch', { allow: ['Bash(touch:*)'], deny: ['Bash(touch:*)'] });
    expect(eventsOfType(run, 'refusal').map((event) => event.tool)).toEqual(['Bash']);
    expect(existsSync(join(sandbox.workspace, 'statecraft-marker.txt'))).toBe(false);
  });

  it('ends a tool-calling session under --max-turns 1 as turn-limit, claude exit 1 read nowhere (R10.4)', async () => {
    const { run } = await live('bash-echo', { maxTurns: 1 });
    const end = result(run);
    expect(end.terminal).toBe('turn-limit');
    expect(end.claim).toMatchObject({ status: 'error_max_turns', isError: true, reason: 'max_turns' });
    expect(eventsOfType(run, 'refusal')).toHaveLength(0);
    expect(run.exit.code).toBe(0);
  });

  it('reports a blocking hook as hook progress events and the blocked call as a refusal (R2.1 hook-enforcement, docs/facts.md item 8)', async () => {
    const hooks: Request['limits']['hooks'] = [{ when: 'before-tool', tool: 'Bash', command: 'echo blocked-by-statecraft-hook >&2; exit 2' }];
    const { run, sandbox } = await live('bash-touch', { allow: ['Bash(touch:*)'], hooks });
    const hookEvents = eventsOfType(run, 'progress').filter((event) => event.kind === 'hook');
    expect(hookEvents.map((event) => (event.detail as { subtype: string }).subtype)).toEqual(['hook_started', 'hook_response']);
    expect(hookEvents[1]?.detail).toMatchObject({ hook_name: 'PreToolUse:Bash', exit_code: 2, outcome: 'error' });
    expect(eventsOfType(run, 'refusal').map((event) => event.tool)).toEqual(['Bash']);
    expect(existsSync(join(sandbox.workspace, 'statecraft-marker.txt'))).toBe(false);
  });

  it('reflects tool removal in the applied tool set read from init.tools, with no refusal record (R10.3)', async () => {
    const { run } = await live('completed', { removeTools: ['Bash'] });
    const init = eventsOfType(run, 'init')[0];
    expect(init?.applied.tools).not.toContain('Bash');
    expect(init?.applied.tools).toContain('Read');
    expect(eventsOfType(run, 'refusal')).toHaveLength(0);
  });

  it('reports "Not logged in" (no key, no base URL) as provider-error with the claim kept (R10.4, R5.4)', async () => {
    const sandbox = await makeSandbox();
    const run = await runAdapter({ sandbox, environment: baseEnvironment(sandbox) });
    const init = eventsOfType(run, 'init')[0];
    expect(init?.detail).toMatchObject({ apiKeySource: 'none' });
    const end = result(run);
    expect(end.terminal).toBe('provider-error');
    expect(end.claim).toMatchObject({ status: 'success', isError: true, reason: 'api_error' });
    expect(end.cost).toEqual({ usd: 0 });
  });

  it('reports an API error the provider does not retry as provider-error, the claim and its status kept (R10.4)', async () => {
    const { run } = await live('http-error');
    const end = result(run);
    expect(end.terminal).toBe('provider-error');
    expect(end.claim).toMatchObject({ status: 'success', isError: true, reason: 'api_error', detail: { api_error_status: 400 } });
  });

  it('fails visibly when claude is not on the constructed PATH: an init that applied nothing, then an error naming the PATH (R5.4, R10.6)', async () => {
    const sandbox = await makeSandbox({ withClaude: false });
    const run = await runAdapter({ sandbox, environment: baseEnvironment(sandbox) });
    expect(run.events.map((event) => event.type)).toEqual(['init', 'error']);
    expect(eventsOfType(run, 'init')[0]?.applied.capabilities).toEqual([]);
    const error = eventsOfType(run, 'error')[0];
    expect(error?.code).toBe('provider-not-found');
    expect(error?.message).toContain(sandbox.bin);
  });
});
