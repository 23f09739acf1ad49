import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeHookPolicy, recordedStreamsDirectory } from '@statecraft/adapter-codex';
import { codexReplays } from '../../fixtures/codex-adapter-process.js';

const { replay, roots } = codexReplays();

// R10.1's rules for the settings file, applied to Codex's one config document: private, made per
// attempt in the attempt's TMPDIR (outside the workspace, and never under the TMPDIR Codex is
// given), carrying the endpoint and the hook, removed after.

interface Inspected {
  argv: string[];
  cwd: string;
  codexHome: string | null;
  temporaryDirectory: string | null;
  prompt: string;
  config: { path: string; mode: number; text: string } | null;
}

describe('the Codex config document and private CODEX_HOME', () => {
  it("is one 0600 document in a fresh CODEX_HOME in the attempt's TMPDIR, beside Codex's own TMPDIR, never under it, removed when the attempt ends (R10.1)", async () => {
    const inspect = join(tmpdir(), `statecraft-codex-inspect-${process.pid}-${Date.now()}.json`);
    roots.push(inspect);
    const run = await replay(join(recordedStreamsDirectory(), 'completed.jsonl'), {
      limits: { deny: ['Bash(git push:*)'] },
      environment: { STATECRAFT_REPLAY_INSPECT: inspect, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
    });
    const seen = JSON.parse(readFileSync(inspect, 'utf8')) as Inspected;
    const attemptTemporary = join(run.root, 'tmp');
    expect(seen.codexHome).toMatch(new RegExp(`^${attemptTemporary}/statecraft-codex-[^/]+/codex-home$`));
    // Codex refuses to make its sandbox helper under its own TMPDIR (docs/facts.md item 23): a sibling.
    expect(seen.temporaryDirectory).toBe(join(seen.codexHome ?? '/nonexistent', '..', 'codex-tmp'));
    expect(seen.codexHome?.startsWith(`${seen.temporaryDirectory ?? ''}/`)).toBe(false);
    expect(seen.cwd).toBe(join(run.root, 'workspace'));
    expect(seen.prompt).toBe('Do the scripted work.');
    expect(seen.argv).toEqual([
      'exec',
      '--json',
      '--strict-config',
      '--skip-git-repo-check',
      '--dangerously-bypass-hook-trust',
      '-C',
      join(run.root, 'workspace'),
      '-',
    ]);
    expect(seen.config?.mode).toBe(0o600);
    expect(seen.config?.text).toContain('base_url = "http://127.0.0.1:9/v1"');
    expect(seen.config?.text).toContain('env_key = "OPENAI_API_KEY"');
    expect(seen.config?.text).toContain('sandbox_mode = "workspace-write"');
    // The hook carries the rules inside its own command line: no second document to rewrite.
    const policy = /--policy' '([A-Za-z0-9+/=]+)'/.exec(seen.config?.text ?? '')?.[1] ?? '';
    expect(decodeHookPolicy(policy)).toMatchObject({ deny: ['Bash(git push:*)'], channel: join(seen.codexHome ?? '', '..', 'statecraft-denials.jsonl') });
    // Gone after the attempt, and nothing made in the operator's ~/.codex.
    expect(readdirSync(attemptTemporary)).toEqual([]);
    expect(existsSync(join(run.root, 'home', '.codex'))).toBe(false);
    expect(run.events.at(-1)?.type).toBe('result');
  });

  it('refuses what Codex cannot do before it starts, naming the field and what to do: a turn cap, a rule for another tool (R2.3, R5.4)', async () => {
    const capped = await replay(join(recordedStreamsDirectory(), 'completed.jsonl'), { limits: { maxTurns: 3 } });
    expect(capped.events.at(-1)).toMatchObject({
      type: 'error',
      code: 'invocation-refused',
      message: expect.stringContaining('limits.maxTurns is 3: Codex has no turn cap') as unknown,
    });
    const write = await replay(join(recordedStreamsDirectory(), 'completed.jsonl'), { limits: { deny: ['Write'] } });
    expect(write.events.at(-1)).toMatchObject({
      type: 'error',
      code: 'invocation-refused',
      message: expect.stringContaining('limits.deny: "Write" names the tool Write') as unknown,
    });
  });
});
