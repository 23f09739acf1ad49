import { symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as claudeCode from '@statecraft/adapter-claude-code';
import * as codex from '@statecraft/adapter-codex';
import { createProductHome, createSampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

/** Every temporary directory this file makes, removed when it is done. */
const scratch = scratchDirectories();

// Issue 30 item 3, through the built CLI: an attempt that the provider ends with an error says the
// provider's own words for it — in `run`, `run show` and `--json` — read from the kept stream, not
// only "success (an error)". The real pinned claude and codex, each on its model double on 127.0.0.1.

interface ProviderErrorJson {
  seq: number;
  text: string;
  code: string;
  httpStatus: number | string;
  cut: boolean;
}
interface RunJson {
  runId: string;
  outcome: string;
  cause: string;
  providerError?: ProviderErrorJson | 'none';
}

/** Characters a terminal would act on, and a line break in the middle of a value. */
const HOSTILE = 'key refused\u001b[2J\u001b]0;owned\u0007\nstatecraft: forged line';
const LONG = `quota exceeded ${'because '.repeat(600)}end`;

const replies = (status: number, errorType: string, message: string) => [{ kind: 'http-error', status, errorType, message }];
const SCENARIOS = [
  { name: 'unauthorized', description: 'The API answers 401 to every request.', replies: replies(401, 'authentication_error', 'invalid x-api-key') },
  { name: 'hostile-error', description: 'An error message with escapes and a line break.', replies: replies(400, 'invalid_request_error', HOSTILE) },
  { name: 'long-error', description: 'An error message longer than a terminal line many times over.', replies: replies(400, 'invalid_request_error', LONG) },
];

let claudeDouble: claudeCode.ModelDouble;
let codexDouble: codex.ModelDouble;
let bin: string;
beforeAll(async () => {
  claudeDouble = await claudeCode.startModelDouble(SCENARIOS.map((scenario) => claudeCode.ScenarioSchema.parse(scenario)));
  codexDouble = await codex.startModelDouble(SCENARIOS.map((scenario) => codex.ScenarioSchema.parse(scenario)));
  bin = await scratch.make('statecraft-provider-error-bin-');
  await symlink(claudeCode.pinnedClaudePath(), join(bin, 'claude'));
  await symlink(codex.pinnedCodexPath(), join(bin, 'codex'));
});
afterAll(async () => {
  await claudeDouble.stop();
  await codexDouble.stop();
});

type Adapter = 'claude-code' | 'codex';

/** The operator's environment: the provider on PATH, its double's address and key for `scenario` (none when null). */
async function environment(adapter: Adapter, scenario: string | null): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: await scratch.make('statecraft-provider-error-home-'),
  };
  if (scenario === null) return env;
  if (adapter === 'claude-code')
    Object.assign(env, { ANTHROPIC_BASE_URL: claudeDouble.baseUrlFor(scenario), ANTHROPIC_API_KEY: claudeCode.MODEL_DOUBLE_API_KEY });
  else Object.assign(env, { OPENAI_BASE_URL: codexDouble.baseUrlFor(scenario), OPENAI_API_KEY: codexDouble.apiKey });
  return env;
}

/** `run` in text, then `run show` in text and in JSON, on one attempt. */
async function attempt(adapter: Adapter, scenario: string | null, extra: readonly string[] = []) {
  const repository = await createSampleRepository();
  scratch.keep(repository);
  const home = await createProductHome();
  scratch.keep(home);
  const env = await environment(adapter, scenario);
  const options = { home: home.path, env, timeoutMs: 150_000 };
  const ran = await runStatecraft(['run', repository.path, '--adapter', adapter, '--prompt', 'Do the scripted work.', '--deadline', '120s', ...extra], options);
  const shown = await runStatecraft(['run', 'show', repository.path, 'latest', '--json'], options);
  const value = parseJson<RunJson>(shown);
  const text = await runStatecraft(['run', 'show', repository.path, value.runId], options);
  const posture = await runStatecraft(['run', 'show', repository.path, value.runId, '--posture'], options);
  return { ran, value, text, posture };
}

/** Each line of a text answer: within 80 columns, no escape or control character. */
function expectTerminalSafe(output: string): void {
  for (const line of output.split('\n')) {
    expect(line.length).toBeLessThanOrEqual(80);
    expect([...line].filter((character) => character < ' ' || character === '\u007f')).toEqual([]);
  }
}

describe("a provider's error is shown in its own words (run, run show, --json)", () => {
  it('claude without a key: "Not logged in", as claude wrote it', async () => {
    const { ran, value, text, posture } = await attempt('claude-code', null, ['--allow-missing-credential']);
    expect(value).toMatchObject({ outcome: 'interrupted', cause: 'provider-error' });
    expect(value.providerError).toMatchObject({ text: expect.stringContaining('Not logged in') as unknown, code: 'authentication_failed', cut: false });
    for (const output of [ran.stdout, text.stdout]) expect(output).toMatch(/provider said +Not logged in/);
    expect(posture.stdout).toMatch(/provider error +Not logged in/);
    expectTerminalSafe(ran.stdout);
    expectTerminalSafe(text.stdout);
  }, 200_000);

  // claude retries a 401 until its deadline; its API errors are the 400s below, and no key above.
  it("codex on a 401: the provider's message, with the status it names", async () => {
    const { ran, value, text } = await attempt('codex', 'unauthorized');
    expect(value).toMatchObject({ outcome: 'interrupted', cause: 'provider-error' });
    expect(value.providerError).toMatchObject({ text: expect.stringMatching(/401 Unauthorized: invalid x-api-key/) as unknown, cut: false });
    for (const output of [ran.stdout, text.stdout]) expect(output).toMatch(/provider said +unexpected status 401 Unauthorized: invalid x-api-key/);
  }, 200_000);

  it.each(['claude-code', 'codex'] as const)(
    '%s: a message with escapes and a line break is shown inert, on its own line',
    async (adapter) => {
      const { ran, value, text } = await attempt(adapter, 'hostile-error');
      expect(value.cause).toBe('provider-error');
      for (const output of [ran.stdout, text.stdout]) {
        expectTerminalSafe(output);
        expect(output).not.toMatch(/^statecraft: forged line/m);
      }
      expect(value.providerError).toMatchObject({ text: expect.stringContaining('key refused') as unknown });
      if (adapter === 'codex') expect(value.providerError).toMatchObject({ text: HOSTILE, code: 'invalid_request_error' });
    },
    200_000,
  );

  it.each(['claude-code', 'codex'] as const)(
    '%s: a long message is cut to fit, the answer keeping its first 2000 characters',
    async (adapter) => {
      const { ran, value, text } = await attempt(adapter, 'long-error');
      expect(value.cause).toBe('provider-error');
      for (const output of [ran.stdout, text.stdout]) {
        expectTerminalSafe(output);
        expect(output).toContain('quota exceeded because');
      }
      expect(value.providerError).toMatchObject({ text: expect.stringContaining('quota exceeded because') as unknown });
      if (adapter === 'codex') expect(value.providerError).toMatchObject({ text: LONG.slice(0, 2000), cut: true });
    },
    200_000,
  );
});
