import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ATTEMPT_TAG_VARIABLE } from '@statecraft/adapter';
import { progressDetail, readKeptEvents } from '../../fixtures/attempt-stream.js';
import { createCustomAdapter } from '../../fixtures/custom-adapter.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

interface PlacedName {
  name: string;
  origin: string;
  value: { recorded: string } | 'redacted';
}
interface Account {
  runId: string;
  outcome: string;
  workspace: string;
  records: { chain: string };
  posture: {
    containment: { mechanism: string };
    environment: { state: string; names: PlacedName[]; absent: { name: string }[]; residuals: { id: string; statement: string }[] };
  };
  artifacts: { stream: { path: string } | 'not-recorded' };
}

const targets = useTestTargets();

/** Credentials planted in the supervisor's own environment: none may reach the child (R5.1, R5.2). */
const PLANTED = {
  GITHUB_TOKEN: 'ghp_planted-github-token',
  NPM_TOKEN: 'npm_planted',
  AWS_SECRET_ACCESS_KEY: 'planted-aws-secret',
  SSH_AUTH_SOCK: '/tmp/planted-agent.sock',
  SOME_OPERATOR_VARIABLE: 'not on any allowlist',
};

async function dumpEnvironment(adapter: string, env: Record<string, string>, ...extra: string[]) {
  const run = await runStatecraft(['run', targets.repository.path, '--adapter', adapter, '--prompt', 'scenario: dump-env', '--json', ...extra], {
    home: targets.home.path,
    env,
  });
  const account = parseJson<Account>(run);
  const events = await readKeptEvents(account);
  const received = progressDetail(events, 'env')['env'] as Record<string, string>;
  return { run, account, received };
}

describe('the child environment is constructed from an allowlist and recorded completely (R5)', () => {
  it('the child receives exactly the recorded names, and no planted credential reaches it (R5.1, R5.2)', async () => {
    const { account, received } = await dumpEnvironment('fixture', { ...PLANTED, LANG: 'C.UTF-8' });
    expect(account.outcome).toBe('completed');
    const recorded = account.posture.environment.names;
    expect(Object.keys(received).sort()).toEqual(recorded.map((entry) => entry.name).sort());
    for (const entry of recorded) {
      if (entry.value !== 'redacted') expect(received[entry.name]).toBe(entry.value.recorded);
    }
    for (const name of Object.keys(PLANTED)) expect(received).not.toHaveProperty(name);
    expect(received['LANG']).toBe('C.UTF-8');
    expect(received['STATECRAFT_RUN_ID']).toBe(account.runId);
    expect(received['STATECRAFT_ATTEMPT']).toBe('1');
    expect(account.posture.environment.state).toBe('applied');
  });

  it('TMPDIR is a private per-attempt directory outside the workspace, removed afterwards (R5.5)', async () => {
    const { account, received } = await dumpEnvironment('fixture', {});
    const temporary = received['TMPDIR'] ?? '';
    expect(temporary).not.toBe('');
    expect(temporary.startsWith(account.workspace)).toBe(false);
    expect(temporary.startsWith(targets.home.path)).toBe(false);
    await expect(stat(temporary)).rejects.toThrow();
  });

  it('the residuals of R5.3, and that the request path names the product home, are recorded on every attempt without the boundary', async () => {
    const { account } = await dumpEnvironment('fixture', { STATECRAFT_BOUNDARY: 'none' });
    expect(account.posture.containment.mechanism).toBe('pid-namespace');
    expect(account.posture.environment.residuals.map((residual) => residual.id)).toEqual([
      'absolute-path-bypass',
      'home-readable',
      'stored-credentials-answer',
      'publish-around-supervisor',
      'request-path-reveals-product-home',
    ]);
  });

  it('under the evidence boundary the residuals of R5.3 are recorded, and neither the request path nor the home is in reach (R12)', async () => {
    const { account } = await dumpEnvironment('fixture', {});
    expect(account.posture.containment.mechanism).toBe('bwrap');
    // The boundary hides the home: what stays readable is the boundary's own residual.
    expect(account.posture.environment.residuals.map((residual) => residual.id)).toEqual([
      'absolute-path-bypass',
      'stored-credentials-answer',
      'publish-around-supervisor',
    ]);
  });

  it('under the evidence boundary the intent names bwrap as the containment, as the outcome does (R6, R12)', async () => {
    const { account } = await dumpEnvironment('fixture', {});
    const intent = (await readFile(account.records.chain, 'utf8'))
      .split('\n')
      .filter((line) => line.includes(account.runId))
      .map((line) => JSON.parse(line) as { kind: string; posture?: { containment: { mechanism: string; blindSpots: string[] } } })
      .find((record) => record.kind === 'intent');
    expect(account.posture.containment.mechanism).toBe('bwrap');
    // The plan's containment is the one the launch uses: never a mechanism the attempt did not run under.
    expect(intent?.posture?.containment).toEqual(account.posture.containment);
  });

  it("an attempt under the process-group fallback (boundary none) records that its child can read the supervisor's environment and signal it, on the intent and the outcome (R5.3, R6)", async () => {
    const { account } = await dumpEnvironment('fixture', { STATECRAFT_CONTAINMENT: 'process-group', STATECRAFT_BOUNDARY: 'none' });
    expect(account.posture.containment.mechanism).toBe('process-group');
    const expected = [
      'absolute-path-bypass',
      'home-readable',
      'stored-credentials-answer',
      'publish-around-supervisor',
      'request-path-reveals-product-home',
      'supervisor-environment-readable',
      'supervisor-signalable',
    ];
    expect(account.posture.environment.residuals.map((residual) => residual.id)).toEqual(expected);
    const records = (await readFile(account.records.chain, 'utf8'))
      .split('\n')
      .filter((line) => line.includes(account.runId))
      .map((line) => JSON.parse(line) as { kind: string; posture?: { environment: { residuals: { id: string; statement: string }[] } } });
    const intent = records.find((record) => record.kind === 'intent');
    expect(intent?.posture?.environment.residuals.map((residual) => residual.id)).toEqual(expected);
    const statements = account.posture.environment.residuals.map((residual) => residual.statement).join('\n');
    expect(statements).toContain('/proc/<supervisor pid>/environ');
    expect(statements).toContain('stop or kill its supervisor');
  });

  it("names an adapter's manifest declares are passed; a secret's value reaches the child but never the record (R5.1, R5.4)", async () => {
    const adapter = await createCustomAdapter({
      environment: {
        pass: [
          { name: 'HOME', secret: false, why: 'credential path: ~/.custom/credentials.json' },
          { name: 'CUSTOM_API_KEY', secret: true, why: 'the provider authenticates with it' },
        ],
      },
    });
    try {
      const secret = 'sk-custom-secret-value-0123456789';
      const { account, received } = await dumpEnvironment(adapter.executable, { CUSTOM_API_KEY: secret });
      expect(received['CUSTOM_API_KEY']).toBe(secret);
      expect(received['HOME']).toBe(process.env.HOME);
      const key = account.posture.environment.names.find((entry) => entry.name === 'CUSTOM_API_KEY');
      expect(key).toEqual(expect.objectContaining({ origin: 'adapter', value: 'redacted' }));
      const chain = await readFile(account.records.chain, 'utf8');
      expect(chain).not.toContain(secret);
    } finally {
      await adapter.remove();
    }
  });

  it('a declared name the operator has not set is recorded absent and the environment degraded; it is not invented (R5.4)', async () => {
    const adapter = await createCustomAdapter({ environment: { pass: [{ name: 'CUSTOM_API_KEY', secret: true, why: 'auth' }] } });
    try {
      const { account, received } = await dumpEnvironment(adapter.executable, {});
      expect(received).not.toHaveProperty('CUSTOM_API_KEY');
      expect(account.posture.environment.state).toBe('degraded');
      expect(account.posture.environment.absent.map((entry) => entry.name)).toEqual(['CUSTOM_API_KEY']);
    } finally {
      await adapter.remove();
    }
  });

  it('an operator request to pass GITHUB_TOKEN is refused on construction: exit 2, nothing appended (R5.2)', async () => {
    const fresh = await targets.fresh();
    try {
      const run = await runStatecraft(['run', fresh.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--pass', 'GITHUB_TOKEN', '--json'], {
        home: targets.home.path,
        env: PLANTED,
      });
      expect(run.exitCode).toBe(2);
      const answer = parseJson<{ refused: { reason: string; message: string; detail: { refusals: { name: string; family: string }[] } } }>(run);
      expect(answer.refused.reason).toBe('environment');
      expect(answer.refused.detail.refusals).toEqual([expect.objectContaining({ name: 'GITHUB_TOKEN', family: 'github' })]);
      const list = parseJson<{ attempts: unknown[] }>(await runStatecraft(['run', 'list', fresh.path, '--json'], { home: targets.home.path }));
      expect(list.attempts).toEqual([]);
    } finally {
      await fresh.remove();
    }
  });

  it('a manifest asking for a credential family (AWS_*) is refused before spawn, naming it (R5.2)', async () => {
    const adapter = await createCustomAdapter({ environment: { pass: [{ name: 'AWS_SESSION_TOKEN', secret: true, why: 'deploys' }] } });
    try {
      const run = await runStatecraft(['run', targets.repository.path, '--adapter', adapter.executable, '--prompt', 'scenario: complete'], {
        home: targets.home.path,
        env: PLANTED,
      });
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toContain('AWS_SESSION_TOKEN');
      expect(run.stderr).toContain("adapter's manifest");
    } finally {
      await adapter.remove();
    }
  });

  it.each([ATTEMPT_TAG_VARIABLE, 'STATECRAFT_RUN_ID', 'TMPDIR'])(
    '--pass %s, a name the supervisor sets, is refused before spawn: exit 2, nothing appended (R5.5)',
    async (name) => {
      const fresh = await targets.fresh();
      try {
        const run = await runStatecraft(['run', fresh.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--pass', name, '--json'], {
          home: targets.home.path,
          env: { [name]: 'the-operators-own-value' },
        });
        expect(run.exitCode).toBe(2);
        const answer = parseJson<{ refused: { reason: string; message: string; detail: { refusals: { name: string; origin: string; family: string }[] } } }>(
          run,
        );
        expect(answer.refused.reason).toBe('environment');
        expect(answer.refused.detail.refusals).toEqual([expect.objectContaining({ name, origin: 'operator', family: 'supervisor-set' })]);
        expect(run.stderr).toContain(`${name} requested by the operator (--pass): refused; the supervisor sets it`);
        const list = parseJson<{ attempts: unknown[] }>(await runStatecraft(['run', 'list', fresh.path, '--json'], { home: targets.home.path }));
        expect(list.attempts).toEqual([]);
      } finally {
        await fresh.remove();
      }
    },
  );
});

describe('the operator checkout is never modified (R8.6)', () => {
  it('git status and HEAD of the operator checkout are the same before and after a run', async () => {
    const statusBefore = await targets.repository.git('status', '--porcelain', '--untracked-files=all');
    const headBefore = await targets.repository.git('rev-parse', 'HEAD');
    const branchBefore = await targets.repository.git('symbolic-ref', 'HEAD');
    const run = await runStatecraft(['run', targets.repository.path, '--adapter', 'fixture', '--prompt', 'scenario: report-cwd', '--json'], {
      home: targets.home.path,
    });
    expect(run.exitCode).toBe(0);
    expect(await targets.repository.git('status', '--porcelain', '--untracked-files=all')).toBe(statusBefore);
    expect(await targets.repository.git('rev-parse', 'HEAD')).toBe(headBefore);
    expect(await targets.repository.git('symbolic-ref', 'HEAD')).toBe(branchBefore);
    const account = parseJson<Account>(run);
    // The records are in the product home, never in the target (R8.4).
    expect(account.records.chain.startsWith(targets.home.path)).toBe(true);
    expect(account.workspace.startsWith(join(targets.repository.path, '.statecraft', 'state'))).toBe(true);
  });
});
