import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pinnedCodexPath } from '@statecraft/adapter-codex';
import { createProductHome, createSampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { useLiveClaude } from '../../fixtures/live-claude.js';

/** Every temporary directory this file makes, removed when it is done. */
const scratch = scratchDirectories();

// Issue 30 item 3, through the built CLI: a credential the adapter's manifest declares, absent from
// the environment the child would get, refuses the run before anything is spawned or recorded
// (exit 2), naming what to set; --allow-missing-credential starts it anyway. The real claude and
// codex on PATH, as an operator has them.

interface Refused {
  refused: { stage: string; reason: string; message: string; detail: { adapter: string; variables: string[]; files: string[] } };
}

const claude = useLiveClaude(scratch, 'statecraft-credential-bin');

async function attempt(adapter: 'claude-code' | 'codex', env: Record<string, string>, extra: readonly string[] = []) {
  const repository = await createSampleRepository();
  scratch.keep(repository);
  const home = await createProductHome();
  scratch.keep(home);
  const args = ['run', repository.path, '--adapter', adapter, '--prompt', 'Do the scripted work.', '--deadline', '120s', ...extra];
  const options = { home: home.path, env, timeoutMs: 150_000 };
  const text = await runStatecraft(args, options);
  const json = await runStatecraft([...args, '--json'], options);
  // Nothing recorded: no target's directory in the product home, no workspace beside the checkout.
  const recorded = existsSync(join(home.path, 'targets')) || existsSync(join(repository.path, '.statecraft'));
  return { text, json, recorded };
}

async function operatorHome(): Promise<string> {
  return scratch.make('statecraft-credential-home-');
}

describe('a missing credential is refused before spawn, naming what to set', () => {
  it('claude-code without ANTHROPIC_API_KEY and without a login: exit 2, the key and the login file named, nothing recorded', async () => {
    const { text, json, recorded } = await attempt('claude-code', claude.environment(null, await operatorHome()));
    expect(text.exitCode).toBe(2);
    expect(text.stderr).toContain('has no credential');
    expect(text.stderr).toMatch(/^ {2}set ANTHROPIC_API_KEY$/m);
    expect(text.stderr).toContain('~/.claude/.credentials.json');
    expect(text.stderr).toContain('--allow-missing-credential');
    for (const line of text.stderr.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(text.stdout).toBe('');
    expect(json.exitCode).toBe(2);
    expect(parseJson<Refused>(json).refused).toMatchObject({
      stage: 'plan',
      reason: 'credential',
      detail: { adapter: 'claude-code', variables: ['ANTHROPIC_API_KEY'], files: ['~/.claude/.credentials.json'] },
    });
    expect(recorded).toBe(false);
  });

  it('an empty ANTHROPIC_API_KEY is no credential', async () => {
    const env = { ...claude.environment(null, await operatorHome()), ANTHROPIC_API_KEY: '' };
    const { text, recorded } = await attempt('claude-code', env);
    expect(text.exitCode).toBe(2);
    expect(text.stderr).toContain('set ANTHROPIC_API_KEY');
    expect(recorded).toBe(false);
  });

  it('codex without OPENAI_API_KEY: exit 2 naming it, nothing recorded', async () => {
    const bin = await scratch.make('statecraft-credential-codex-bin-');
    await symlink(pinnedCodexPath(), join(bin, 'codex'));
    const env = { PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`, HOME: await operatorHome() };
    const { text, json, recorded } = await attempt('codex', env);
    expect(text.exitCode).toBe(2);
    expect(text.stderr).toMatch(/^ {2}set OPENAI_API_KEY$/m);
    expect(parseJson<Refused>(json).refused).toMatchObject({ reason: 'credential', detail: { adapter: 'codex', variables: ['OPENAI_API_KEY'], files: [] } });
    expect(recorded).toBe(false);
  });

  it('a login file in the home is a credential: the run starts (and claude says what it makes of it)', async () => {
    const home = await operatorHome();
    await mkdir(join(home, '.claude'));
    await writeFile(join(home, '.claude', '.credentials.json'), '{}\n');
    const { json } = await attempt('claude-code', claude.environment(null, home));
    expect(json.exitCode).toBe(1);
    expect(parseJson<{ outcome: string; cause: string }>(json)).toMatchObject({ outcome: 'interrupted', cause: 'provider-error' });
  }, 200_000);

  it('--allow-missing-credential starts it without one: the attempt is recorded, the provider error in its words', async () => {
    const { json, recorded } = await attempt('claude-code', claude.environment(null, await operatorHome()), ['--allow-missing-credential']);
    expect(json.exitCode).toBe(1);
    expect(parseJson<{ outcome: string; cause: string }>(json)).toMatchObject({ outcome: 'interrupted', cause: 'provider-error' });
    expect(recorded).toBe(true);
  }, 200_000);
});
