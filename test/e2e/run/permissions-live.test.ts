import { readFileSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeCodeAdapterPath } from '@statecraft/adapter-claude-code';
import { loadScenarios, pinnedCodexPath, scenariosDirectory, startModelDouble } from '@statecraft/adapter-codex';
import type { ModelDouble } from '@statecraft/adapter-codex';
import { createProductHome, createSampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { useLiveClaude } from '../../fixtures/live-claude.js';

/** Every temporary directory this file makes, removed when it is done. */
const scratch = scratchDirectories();

// Issue 30 item 1, measured live through the built CLI: the real pinned claude and the real pinned
// codex, each on its model double (127.0.0.1 only), inside the evidence boundary. An ordinary
// session — `git status`, `ls`, an edit, the repository's tests — completes with no --allow rule
// under the default (sandboxed) permissions; a --deny rule still refuses its call and records it;
// --permissions strict keeps the mode where only allowed calls run beyond the provider's own.

/** A repository with a module and its test, run by `node --test`. */
const FILES = {
  'README.md': '# sample\n',
  'package.json': '{ "type": "module", "scripts": { "test": "node --test" } }\n',
  'double.mjs': 'export const double = (n) => n * 2;\n',
  'double.test.mjs':
    "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { double } from './double.mjs';\ntest('double', () => assert.equal(double(21), 42));\n",
};

interface RunJson {
  outcome: string;
  refusalCount: number;
  refusals: Array<{ tool: string; verbatim: unknown }>;
  workspace: string;
  artifacts: { stream: { path: string }; request: { path: string } };
  posture: { boundary: { mechanism: string }; permissions: { mode: string } | string; capabilities: { applied: string[] | string } };
}

async function runIn(env: Record<string, string>, adapter: string, extra: readonly string[]) {
  const repository = await createSampleRepository(FILES);
  scratch.keep(repository);
  const home = await createProductHome();
  scratch.keep(home);
  const answer = await runStatecraft(
    ['run', repository.path, '--adapter', adapter, '--prompt', 'Do the scripted work.', '--deadline', '120s', '--json', ...extra],
    {
      home: home.path,
      env,
      timeoutMs: 150_000,
    },
  );
  const value = parseJson<RunJson>(answer);
  const posture = await runStatecraft(['run', 'show', repository.path, 'latest', '--posture'], { home: home.path, env, timeoutMs: 60_000 });
  return {
    answer,
    value,
    posture,
    stream: readFileSync(value.artifacts.stream.path, 'utf8'),
    request: JSON.parse(readFileSync(value.artifacts.request.path, 'utf8')) as { permissions?: unknown },
  };
}

describe('Claude Code: sandboxed by default, strict on request (live, on the model double)', () => {
  const claude = useLiveClaude(scratch, 'statecraft-perm-cc-bin-');
  const run = async (extra: readonly string[]) =>
    runIn(claude.environment('work-session', await scratch.make('statecraft-perm-cc-home-')), claudeCodeAdapterPath(), extra);

  it('completes a session that runs git status, ls and the tests and writes a file, with no --allow rule', async () => {
    const { answer, value, posture, stream, request } = await run([]);
    expect(value.posture.boundary.mechanism).toBe('bwrap');
    expect(value.outcome, answer.stdout).toBe('completed');
    expect(value.refusalCount).toBe(0);
    expect(readFileSync(join(value.workspace, 'triple.mjs'), 'utf8')).toBe('export const triple = (n) => n * 3;\n');
    // The test runner ran and passed inside the boundary.
    expect(stream).toMatch(/# pass 1/);
    expect(value.posture.permissions).toEqual({ mode: 'sandboxed' });
    expect(value.posture.capabilities.applied).toContain('workspace-write');
    expect(request.permissions).toEqual({ mode: 'sandboxed' });
    expect(posture.stdout).toMatch(/permissions +sandboxed: every tool runs in the workspace but the denied/);
  });

  it('still refuses a call a --deny rule matches, and records it verbatim', async () => {
    const { value } = await run(['--deny', 'Bash(node:*)']);
    expect(value.outcome).toBe('refused');
    expect(value.refusalCount).toBe(1);
    expect(value.refusals[0]?.tool).toBe('Bash');
    expect(JSON.stringify(value.refusals[0]?.verbatim)).toContain('node --test');
    // The rest of the session ran: the write is there.
    expect(readFileSync(join(value.workspace, 'triple.mjs'), 'utf8')).toBe('export const triple = (n) => n * 3;\n');
    expect(value.posture.permissions).toEqual({ mode: 'sandboxed' });
  });

  // claude removes a tool a rule names whole, and then records no denial: the adapter keeps the
  // tool and blocks each call with a hook, so every call is a refusal kept verbatim (R10.3).
  it.each([
    ['sandboxed', []],
    ['strict', ['--permissions', 'strict']],
  ])('under %s, a --deny rule naming the whole tool keeps it offered and refuses each call, verbatim', async (mode, flags) => {
    const { value, stream } = await run([...flags, '--deny', 'Bash']);
    expect(value.posture.permissions).toEqual({ mode });
    expect(value.outcome).toBe('refused');
    expect(value.refusals.map((refusal) => refusal.tool)).toEqual(['Bash', 'Bash', 'Bash']);
    expect(value.refusals.map((refusal) => (refusal.verbatim as { tool_input: { command: string } }).tool_input.command)).toEqual([
      'git status --short',
      'ls',
      'node --test',
    ]);
    expect(stream).toMatch(/"tools":\[[^\]]*"Bash"/);
  });

  it('under --permissions strict refuses the test run no rule allows, as before', async () => {
    const { value, posture, request } = await run(['--permissions', 'strict']);
    expect(value.outcome).toBe('refused');
    expect(value.refusalCount).toBe(1);
    expect(JSON.stringify(value.refusals[0]?.verbatim)).toContain('node --test');
    expect(value.posture.permissions).toEqual({ mode: 'strict' });
    // A strict request leaves the field out: the one every adapter already reads.
    expect(request.permissions).toBeUndefined();
    expect(posture.stdout).toMatch(/permissions +strict: only allowed tools beyond the provider's own/);
  });

  it('under --permissions strict lets an --allow rule cover the test run', async () => {
    const { value } = await run(['--permissions', 'strict', '--allow', 'Bash(node:*)']);
    expect(value.outcome).toBe('completed');
    expect(value.refusalCount).toBe(0);
  });
});

describe('Codex: sandboxed by default, its deny hook on top (live, on the model double)', () => {
  let double: ModelDouble;
  let bin: string;
  beforeAll(async () => {
    double = await startModelDouble(await loadScenarios(scenariosDirectory()));
    bin = await scratch.make('statecraft-perm-codex-bin-');
    await symlink(pinnedCodexPath(), join(bin, 'codex'));
  });
  afterAll(async () => {
    await double.stop();
  });
  const run = async (extra: readonly string[]) =>
    runIn(
      {
        PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
        HOME: await scratch.make('statecraft-perm-codex-home-'),
        OPENAI_BASE_URL: double.baseUrlFor('exec-work-session'),
        OPENAI_API_KEY: double.apiKey,
      },
      'codex',
      extra,
    );

  it('completes a session that runs git status, ls and the tests and edits a file, with no --allow rule', async () => {
    const { answer, value, stream, request } = await run([]);
    expect(value.posture.boundary.mechanism).toBe('bwrap');
    expect(value.outcome, answer.stdout).toBe('completed');
    expect(value.refusalCount).toBe(0);
    expect(readFileSync(join(value.workspace, 'double.mjs'), 'utf8')).toContain('export const triple = (n) => n * 3\n');
    expect(stream).toMatch(/# pass 1/);
    expect(value.posture.permissions).toEqual({ mode: 'sandboxed' });
    expect(request.permissions).toEqual({ mode: 'sandboxed' });
  });

  it('still refuses a call a --deny rule matches, and records it verbatim', async () => {
    const { value } = await run(['--deny', 'Bash(node:*)']);
    expect(value.outcome).toBe('refused');
    expect(value.refusalCount).toBe(1);
    expect(JSON.stringify(value.refusals[0]?.verbatim)).toContain('node --test');
  });

  it('under --permissions strict runs only what an --allow rule covers', async () => {
    const { value } = await run(['--permissions', 'strict', '--allow', 'Bash(git:*)', '--allow', 'Bash(ls:*)', '--allow', 'Bash(echo:*)']);
    expect(value.posture.permissions).toEqual({ mode: 'strict' });
    expect(value.outcome).toBe('refused');
    expect(value.refusalCount).toBe(1);
    expect(JSON.stringify(value.refusals[0]?.verbatim)).toContain('node --test');
  });
});
