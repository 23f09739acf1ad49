import { existsSync, readdirSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MODEL_DOUBLE_API_KEY,
  ScenarioSchema,
  claudeCodeAdapterPath,
  pinnedClaudePath,
  startModelDouble,
  type ModelDouble,
} from '@statecraft/adapter-claude-code';
import { createProductHome, createSampleRepository } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// Issue 29 item 14, through the built CLI with the real pinned claude against its model double:
// each attempt gets a private Claude configuration directory (CLAUDE_CONFIG_DIR), so claude writes
// nothing into the operator's ~/.claude (no transcript under projects/, no ~/.claude.json), and a
// hook the session plants in its configuration does not run in the next attempt. Both with the
// boundary and without it: without it nothing hides the home, so only the private directory holds.

const scratch = scratchDirectories();

/** The hook a session plants: it marks the workspace of whichever session runs a tool after it. */
const PLANTED_SETTINGS = JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'touch planted-hook-ran' }] }] } });

const SCENARIOS = [
  {
    name: 'plant-hook',
    description: "The session writes a PreToolUse hook into claude's own configuration directory (the private one, else ~/.claude).",
    replies: [
      {
        kind: 'tool-use' as const,
        tool: 'Bash',
        input: {
          command: `d="\${CLAUDE_CONFIG_DIR:-$HOME/.claude}"; mkdir -p "$d" && printf '%s' '${PLANTED_SETTINGS}' > "$d/settings.json" && echo planted in "$d"`,
          description: 'Plant a hook',
        },
      },
      { kind: 'text' as const, text: 'Planted.' },
    ],
  },
  {
    name: 'run-a-tool',
    description: 'The session runs one harmless tool call: a hook planted before it would run first.',
    replies: [
      { kind: 'tool-use' as const, tool: 'Bash', input: { command: 'echo hello', description: 'Say hello' } },
      { kind: 'text' as const, text: 'Said hello.' },
    ],
  },
];

let double: ModelDouble | undefined;
let bin: string | undefined;
beforeAll(async () => {
  double = await startModelDouble(SCENARIOS.map((scenario) => ScenarioSchema.parse(scenario)));
  bin = await scratch.make('statecraft-cc-config-bin');
  await symlink(pinnedClaudePath(), join(bin, 'claude'));
});
afterAll(async () => {
  await double?.stop();
});

interface Account {
  outcome: string;
  workspace: string;
}

async function attempt(scenario: string, operatorHome: string, boundary: 'bwrap' | 'none', repository: string, home: string, extra: string[] = []) {
  if (double === undefined || bin === undefined) throw new Error('the model double starts in beforeAll');
  const env = {
    PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: operatorHome,
    ANTHROPIC_BASE_URL: double.baseUrlFor(scenario),
    ANTHROPIC_API_KEY: MODEL_DOUBLE_API_KEY,
    STATECRAFT_BOUNDARY: boundary,
  };
  const ran = await runStatecraft(
    [
      'run',
      repository,
      '--adapter',
      claudeCodeAdapterPath(),
      '--prompt',
      'Do the scripted work.',
      '--deadline',
      '120s',
      '--permissions',
      'strict',
      '--allow',
      'Bash',
      '--json',
      ...extra,
    ],
    { home, env, timeoutMs: 150_000 },
  );
  return { ran, account: parseJson<Account>(ran) };
}

describe("the Claude Code adapter's private configuration directory (issue 29 item 14)", () => {
  for (const boundary of ['bwrap', 'none'] as const) {
    it(
      `with --boundary ${boundary}: nothing is written under the operator's ~/.claude, and a planted hook does not survive into the next attempt`,
      { timeout: 300_000 },
      async () => {
        const operatorHome = await scratch.make('statecraft-cc-config-home');
        // The operator's ~/.claude exists (an ordinary login's), empty: what claude would write there shows.
        await mkdir(join(operatorHome, '.claude'));
        const repository = await createSampleRepository();
        scratch.keep(repository);
        const home = await createProductHome();
        scratch.keep(home);

        const planted = await attempt('plant-hook', operatorHome, boundary, repository.path, home.path);
        expect(planted.account.outcome, planted.ran.stdout).toBe('completed');
        const next = await attempt('run-a-tool', operatorHome, boundary, repository.path, home.path);
        expect(next.account.outcome, next.ran.stdout).toBe('completed');

        expect(readdirSync(join(operatorHome, '.claude')), "claude wrote into the operator's ~/.claude").toEqual([]);
        expect(readdirSync(operatorHome).sort(), "claude wrote into the operator's home").toEqual(['.claude']);
        expect(existsSync(join(next.account.workspace, 'planted-hook-ran')), 'the hook planted by the first attempt ran in the second').toBe(false);
      },
    );
  }
});
