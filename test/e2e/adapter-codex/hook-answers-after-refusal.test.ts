import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { acknowledgeChannel, codexAdapterPath, encodeHookPolicy } from '@statecraft/adapter-codex';

// The adapter's PreToolUse hook (the bundle's `hook` verb), run as Codex runs it: the call on
// stdin, the policy on its command line. A denial is answered only once the adapter has written
// the record out as a refusal, so a denial the model learns of is already in the supervisor's
// stream whenever the attempt is killed after it (hostile finding C1, R14.2).

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

async function deniedCall() {
  const root = await mkdtemp(join(tmpdir(), 'statecraft-codex-hook-'));
  roots.push(root);
  const channel = join(root, 'statecraft-denials.jsonl');
  const policy = encodeHookPolicy({ mode: 'strict', deny: ['Bash(touch:*)'], allow: [], hooks: [], channel });
  const input = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'touch x' }, tool_use_id: 'call_1' });
  const started = Date.now();
  const hook = execa(process.execPath, [codexAdapterPath(), 'hook', '--policy', policy], { input, reject: false, timeout: 20_000 });
  return { channel, hook, started };
}

describe("the Codex adapter's PreToolUse hook", () => {
  it('records a denial at once but answers Codex only after the adapter acknowledges it written out, blocking the call (exit 2)', async () => {
    const { channel, hook } = await deniedCall();
    let answered = false;
    void hook.then(() => (answered = true));
    const recorded = () => existsSync(channel) && readFileSync(channel, 'utf8').includes('"reason":"deny-rule"');
    for (let waited = 0; waited < 15_000 && !recorded(); waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    const seenAt = Date.now();
    expect(recorded()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answered).toBe(false);
    acknowledgeChannel(channel, readFileSync(channel).length);
    const ended = await hook;
    expect(ended.exitCode).toBe(2);
    expect(ended.stderr).toContain('statecraft: denied by the rule Bash(touch:*)');
    // Left to itself the hook would have waited 3 s from its record: it answered on the acknowledgement.
    expect(Date.now() - seenAt).toBeLessThan(2_000);
  });

  it('blocks the call all the same when no adapter acknowledges it, after a short wait', async () => {
    const { hook, started } = await deniedCall();
    const ended = await hook;
    expect(ended.exitCode).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
  });

  it('records a call whose input it cannot read as a denial before it blocks it, so the block is a refusal like any other', async () => {
    const root = await mkdtemp(join(tmpdir(), 'statecraft-codex-hook-'));
    roots.push(root);
    const channel = join(root, 'statecraft-denials.jsonl');
    const policy = encodeHookPolicy({ mode: 'sandboxed', deny: [], allow: [], hooks: [], channel });
    const hook = execa(process.execPath, [codexAdapterPath(), 'hook', '--policy', policy], {
      input: '{"tool_name": "Bash", cut',
      reject: false,
      timeout: 20_000,
    });
    const recorded = () => existsSync(channel) && readFileSync(channel, 'utf8').endsWith('\n');
    for (let waited = 0; waited < 15_000 && !recorded(); waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    acknowledgeChannel(channel, readFileSync(channel).length);
    const ended = await hook;
    expect(ended.exitCode, ended.stderr).toBe(2);
    expect(JSON.parse(readFileSync(channel, 'utf8'))).toMatchObject({
      reason: 'fail-closed',
      tool_name: '',
      tool_input: '{"tool_name": "Bash", cut',
      why: 'the PreToolUse hook input is not JSON; the call is blocked',
    });
  });

  it('blocks the call when its policy cannot be read, rather than crash and let Codex run it (a hook that fails otherwise than with exit 2 lets the call through)', async () => {
    const input = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'touch x' }, tool_use_id: 'call_1' });
    const policies = [
      Buffer.from('{"deny":[],"allow":[],"hooks":[]}').toString('base64'),
      Buffer.from('not json').toString('base64'),
      encodeHookPolicy({ mode: 'strict', deny: [], allow: [], hooks: [], channel: '/nonexistent-statecraft-directory/denials.jsonl' }),
    ];
    for (const policy of policies) {
      const ended = await execa(process.execPath, [codexAdapterPath(), 'hook', '--policy', policy], { input, reject: false, timeout: 20_000 });
      expect(ended.exitCode, ended.stderr).toBe(2);
      expect(ended.stderr).toContain('statecraft: the PreToolUse hook failed');
    }
  });
});
