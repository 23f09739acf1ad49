import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { createFloodAdapter } from '../../fixtures/flood-adapter.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

/**
 * Nothing else bounds what an attempt or a check leaves in the product home: an adapter's flood, or
 * a candidate's test that loops on `yes`, filled the home's file system, and every later run of
 * every target then failed to write its intent (exit 4) until someone deleted by hand. Each kept
 * file stops at the keep bound (STATECRAFT_KEEP_BOUND): the attempt or check is stopped there, as
 * at a deadline, and the file holds exactly the bytes read — its digest verifies and the outcome
 * classified again from it agrees. A deadline far beyond the test's wait shows the stop is the
 * bound's: without it, each of these would run to its deadline.
 */

const BOUND = 1024 * 1024;
const env = { STATECRAFT_KEEP_BOUND: '1MiB' };
const targets = useTestTargets();

interface Account {
  runId: string;
  outcome: string;
  cause: string;
  artifacts: { stream: { path: string; bytes: number } | 'not-recorded'; stderr: { path: string; bytes: number } | 'not-recorded' };
}

async function runFlooding(executable: string): Promise<{ account: Account; exitCode: number; stderr: string }> {
  const ran = await runStatecraft(['run', targets.repository.path, '--adapter', executable, '--prompt', 'flood', '--deadline', '10m', '--json'], {
    home: targets.home.path,
    env,
    timeoutMs: 90_000,
  });
  return { account: parseJson<Account>(ran), exitCode: ran.exitCode, stderr: ran.stderr };
}

/** run show and doctor read the attempt back: the kept file's digest verifies and the outcome agrees with it. */
async function expectReadBackClean(runId: string): Promise<void> {
  const shown = await runStatecraft(['run', 'show', targets.repository.path, runId, '--posture'], { home: targets.home.path });
  expect(shown.stdout).toContain('outcome check     agrees with the kept stream');
  expect(shown.stdout).not.toContain('altered');
  const doctor = await runStatecraft(['doctor'], { home: targets.home.path });
  expect(doctor.exitCode, doctor.stdout).toBe(0);
}

describe('the keep bound (STATECRAFT_KEEP_BOUND): what an attempt or a check may leave in the product home', () => {
  let flood: Awaited<ReturnType<typeof createFloodAdapter>>;
  let stderrFlood: Awaited<ReturnType<typeof createScriptedAdapter>>;
  beforeAll(async () => {
    flood = await createFloodAdapter();
    stderrFlood = await createScriptedAdapter(
      'stderr-flood',
      "init();\nconst text = 'e'.repeat(4096) + '\\n';\nconst pump = () => { while (process.stderr.write(text)) {} process.stderr.once('drain', pump); };\npump();",
    );
  });
  afterAll(async () => {
    await flood.remove();
    await stderrFlood.remove();
  });

  it('an adapter flooding its stream is stopped at the bound, interrupted (evidence-bound), the stream kept to exactly the bound, and it reads back clean', async () => {
    const { account, exitCode, stderr } = await runFlooding(flood.executable);
    expect(exitCode, stderr).toBe(1);
    expect(account).toMatchObject({ outcome: 'interrupted', cause: 'evidence-bound' });
    const stream = account.artifacts.stream as { path: string; bytes: number };
    expect(stream.bytes).toBe(BOUND);
    expect((await stat(stream.path)).size).toBe(BOUND);
    await expectReadBackClean(account.runId);
  }, 120_000);

  it('an adapter flooding its stderr is stopped at the bound as well', async () => {
    const { account, exitCode, stderr } = await runFlooding(stderrFlood.executable);
    expect(exitCode, stderr).toBe(1);
    expect(account).toMatchObject({ outcome: 'interrupted', cause: 'evidence-bound' });
    const kept = account.artifacts.stderr as { path: string; bytes: number };
    expect(kept.bytes).toBe(BOUND);
    expect((await stat(kept.path)).size).toBe(BOUND);
    await expectReadBackClean(account.runId);
  }, 120_000);

  it('a check flooding its output is stopped at the bound: no-acceptance (check-output-bound), naming the output, which is kept to exactly the bound', async () => {
    const acceptance = { checks: ['yes statecraft', 'true'] };
    const declaration = `${JSON.stringify({ project: { commands: ['yes', 'true'] }, acceptance }, null, 2)}\n`;
    const repository = await repositoryWithSuite(targets, acceptance, { '.statecraft/environment.json': declaration });
    const ran = await runStatecraft(
      ['run', repository.path, '--adapter', 'fixture', '--accept', '--check-deadline', '10m', '--prompt', writePrompt('write', 'answer.txt', '42'), '--json'],
      { home: targets.home.path, env, timeoutMs: 90_000 },
    );
    const account = parseJson<{ runId: string; records: { chain: string }; acceptance: { verdict: string; reason: string; explanation: string } }>(ran);
    expect(ran.exitCode, ran.stderr).toBe(1);
    expect(account.acceptance).toMatchObject({ verdict: 'no-acceptance', reason: 'check-output-bound' });
    expect(account.acceptance.explanation).toContain('check-1.stdout reached the keep bound of 1048576 bytes');
    expect(account.acceptance.explanation).toContain('2 checks did not run');
    const output = join(join(account.records.chain, '..'), 'attempts', account.runId, '1', 'acceptance-1', 'check-1.stdout');
    expect((await stat(output)).size).toBe(BOUND);
    const doctor = await runStatecraft(['doctor'], { home: targets.home.path });
    expect(doctor.exitCode, doctor.stdout).toBe(0);
  }, 120_000);

  it('a bound statecraft cannot read is a usage error naming the variable (exit 3), before anything starts', async () => {
    const ran = await runStatecraft(['run', targets.repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete'], {
      home: targets.home.path,
      env: { STATECRAFT_KEEP_BOUND: '12XB' },
    });
    expect(ran.exitCode).toBe(3);
    expect(ran.stderr).toContain('STATECRAFT_KEEP_BOUND=12XB is not understood');
    const accepted = await runStatecraft(['accept', targets.repository.path, '20261130T000000Z-0a0b0c', '--verbose'], {
      home: targets.home.path,
      env: { STATECRAFT_KEEP_BOUND: '0' },
    });
    expect(accepted.exitCode).toBe(3);
    expect(accepted.stderr).toContain('STATECRAFT_KEEP_BOUND=0 is not understood');
  });
});
