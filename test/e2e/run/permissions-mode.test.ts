import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, rowsRejoined, runStatecraft } from '../../fixtures/statecraft-cli.js';

// Issue 30 item 1, through the built CLI with the fixture adapter (no provider): the permission
// mode an attempt is given — `sandboxed` by default inside the boundary, `strict` on request and
// the only mode without it — travels in the request, is recorded in the posture, shown by
// `run show --posture` and `--json`, reused by `--retry`, and every combination that would mean
// nothing or more than the boundary holds is a usage error naming why.

const targets = useTestTargets({ sharedRepository: false });
const PROMPT = 'scenario: write\npath: answer.txt\ntext: 42\n';

interface Account {
  outcome: string;
  runId: string;
  posture: { permissions: { mode: string } | string; boundary: { mechanism: string } };
  artifacts: { request: { path: string } };
}

async function run(repository: string, extra: readonly string[], env: Record<string, string> = {}) {
  const answer = await runStatecraft(['run', repository, '--adapter', 'fixture', '--prompt', PROMPT, '--json', ...extra], { home: targets.home.path, env });
  return answer;
}

function keptRequest(account: Account): Record<string, unknown> {
  return JSON.parse(readFileSync(account.artifacts.request.path, 'utf8')) as Record<string, unknown>;
}

describe('run --permissions', () => {
  it('is sandboxed by default inside the boundary: the request carries it and the posture records it', async () => {
    const repository = await targets.fresh();
    const account = parseJson<Account>(await run(repository.path, []));
    expect(account.outcome).toBe('completed');
    expect(account.posture.boundary.mechanism).toBe('bwrap');
    expect(account.posture.permissions).toEqual({ mode: 'sandboxed' });
    expect(keptRequest(account).permissions).toEqual({ mode: 'sandboxed' });
    const shown = await runStatecraft(['run', 'show', repository.path, 'latest', '--posture'], { home: targets.home.path });
    expect(shown.stdout).toContain('  permissions     sandboxed: every tool runs in the workspace but the denied');
    const json = parseJson<Account>(await runStatecraft(['run', 'show', repository.path, 'latest', '--json'], { home: targets.home.path }));
    expect(json.posture.permissions).toEqual({ mode: 'sandboxed' });
  });

  it('--permissions strict is recorded, and leaves the field out of the request (read as strict by any adapter)', async () => {
    const repository = await targets.fresh();
    const account = parseJson<Account>(await run(repository.path, ['--permissions', 'strict', '--allow', 'Bash(git:*)']));
    expect(account.outcome).toBe('completed');
    expect(account.posture.permissions).toEqual({ mode: 'strict' });
    expect(keptRequest(account)).not.toHaveProperty('permissions');
    const shown = await runStatecraft(['run', 'show', repository.path, 'latest', '--posture'], { home: targets.home.path });
    expect(shown.stdout).toContain("  permissions     strict: only allowed tools beyond the provider's own");
  });

  it('is strict with --boundary none, or STATECRAFT_BOUNDARY=none, when no mode is given', async () => {
    for (const [extra, env] of [
      [['--boundary', 'none'], {}],
      [[], { STATECRAFT_BOUNDARY: 'none' }],
    ] as const) {
      const repository = await targets.fresh();
      const account = parseJson<Account>(await run(repository.path, [...extra], { ...env }));
      expect(account.posture.boundary.mechanism).toBe('none');
      expect(account.posture.permissions).toEqual({ mode: 'strict' });
      expect(keptRequest(account)).not.toHaveProperty('permissions');
    }
  });

  it('refuses sandboxed without the boundary, an unknown mode, and --allow outside strict: exit 3, nothing appended', async () => {
    const repository = await targets.fresh();
    // `fits`: the message is this option's own (commander words a repeated option itself).
    const cases: Array<{ extra: string[]; env?: Record<string, string>; says: string; fits?: false }> = [
      { extra: ['--boundary', 'none', '--permissions', 'sandboxed'], says: '--permissions sandboxed needs the evidence boundary, which is off' },
      { extra: ['--permissions', 'sandboxed'], env: { STATECRAFT_BOUNDARY: 'none' }, says: '--permissions sandboxed needs the evidence boundary' },
      { extra: ['--permissions', 'open'], says: '--permissions open: no such mode' },
      { extra: ['--allow', 'Bash(npm test:*)'], says: '--allow needs --permissions strict; sandboxed permits every tool' },
      { extra: ['--permissions', 'sandboxed', '--allow', 'Write'], says: '--allow needs --permissions strict; sandboxed permits every tool' },
      { extra: ['--permissions', 'strict', '--permissions', 'strict'], says: '--permissions is given more than once', fits: false },
    ];
    for (const { extra, env, says, fits } of cases) {
      const answer = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', PROMPT, ...extra], {
        home: targets.home.path,
        env: env ?? {},
      });
      expect(answer.exitCode, extra.join(' ')).toBe(3);
      expect(answer.stderr).toContain(says);
      expect(answer.stdout).toBe('');
      if (fits !== false) for (const line of answer.stderr.trimEnd().split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    }
    const listed = await runStatecraft(['run', 'list', repository.path, '--json'], { home: targets.home.path });
    expect(listed.stdout).not.toContain('"runId"');
  });

  it('--retry reuses the run’s mode and its allow rules unless told otherwise', async () => {
    const repository = await targets.fresh();
    const first = parseJson<Account>(await run(repository.path, ['--permissions', 'strict', '--allow', 'Bash(git:*)']));
    const again = parseJson<Account>(await runStatecraft(['run', repository.path, '--retry', first.runId, '--json'], { home: targets.home.path }));
    expect(again.posture.permissions).toEqual({ mode: 'strict' });
    expect((keptRequest(again).limits as { allow: string[] }).allow).toEqual(['Bash(git:*)']);
    const sandboxed = parseJson<Account>(await run(repository.path, []));
    const strictRetry = parseJson<Account>(
      await runStatecraft(['run', repository.path, '--retry', sandboxed.runId, '--permissions', 'strict', '--json'], { home: targets.home.path }),
    );
    expect(strictRetry.posture.permissions).toEqual({ mode: 'strict' });
    // A retry without the boundary falls back to strict, the only mode there.
    const unbounded = parseJson<Account>(
      await runStatecraft(['run', repository.path, '--retry', sandboxed.runId, '--boundary', 'none', '--json'], { home: targets.home.path }),
    );
    expect(unbounded.posture.permissions).toEqual({ mode: 'strict' });
  });

  it('says how to permit a call when a strict attempt is refused, and only then', async () => {
    const repository = await targets.fresh();
    const hint = "  to permit      strict permits a tool call only where an --allow rule names it, e.g. --allow 'Bash(npm test:*)'";
    for (const [extra, said] of [
      [['--permissions', 'strict'], true],
      [[], false],
    ] as const) {
      const answer = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: refuse', ...extra], {
        home: targets.home.path,
        env: { NO_COLOR: '1' },
      });
      expect(answer.exitCode, extra.join(' ')).toBe(1);
      expect(rowsRejoined(answer.stdout, 17).includes(hint), answer.stdout).toBe(said);
      for (const line of answer.stdout.trimEnd().split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    }
    const completed = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', PROMPT, '--permissions', 'strict'], {
      home: targets.home.path,
    });
    expect(completed.exitCode).toBe(0);
    expect(completed.stdout).not.toContain('to permit');
  });
});
