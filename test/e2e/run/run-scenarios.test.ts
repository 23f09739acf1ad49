import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive, progressDetail, readKeptEvents } from '../../fixtures/attempt-stream.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

interface Account {
  runId: string;
  attempt: number;
  state: string;
  outcome: string;
  cause: string;
  refusalCount: number;
  refusals: { tool: string; verbatim: unknown }[];
  providerClaim: { status: string; isError: boolean } | 'not-recorded';
  cost: number | 'unknown';
  timedOut: boolean;
  streamError: 'none' | { kind: string };
  turns: number | 'not-recorded';
  workspace: string;
  baseCommit: string;
  headCommit: string;
  posture: { capabilities: { notApplied: string[] }; containment: { mechanism: string }; boundary: { mechanism: string }; survivors: { pid: number }[] };
  artifacts: { stream: { path: string } | 'not-recorded' };
}

const targets = useTestTargets();

async function runScenario(scenario: string, ...extra: string[]) {
  return runScenarioWith({}, scenario, ...extra);
}

async function runScenarioWith(env: Record<string, string>, scenario: string, ...extra: string[]) {
  const run = await runStatecraft(['run', targets.repository.path, '--adapter', 'fixture', '--prompt', `scenario: ${scenario}`, '--json', ...extra], {
    home: targets.home.path,
    env,
  });
  return { run, account: parseJson<Account>(run) };
}

describe('statecraft run drives every fixture scenario to the outcome the supervisor classifies (R8.1, R8.2)', () => {
  const table: { scenario: string; outcome: string; cause: string; exitCode: number }[] = [
    { scenario: 'complete', outcome: 'completed', cause: 'none', exitCode: 0 },
    { scenario: 'no-cost', outcome: 'completed', cause: 'none', exitCode: 0 },
    { scenario: 'under-apply', outcome: 'completed', cause: 'none', exitCode: 0 },
    { scenario: 'dump-env', outcome: 'completed', cause: 'none', exitCode: 0 },
    { scenario: 'malformed', outcome: 'interrupted', cause: 'stream-malformed', exitCode: 1 },
    { scenario: 'read-failure', outcome: 'interrupted', cause: 'stream-read-failure', exitCode: 1 },
    { scenario: 'no-result', outcome: 'interrupted', cause: 'stream-no-result', exitCode: 1 },
    { scenario: 'turn-limit', outcome: 'interrupted', cause: 'turn-limit', exitCode: 1 },
    { scenario: 'provider-error', outcome: 'interrupted', cause: 'provider-error', exitCode: 1 },
    { scenario: 'unmapped', outcome: 'interrupted', cause: 'unmapped-terminal', exitCode: 1 },
  ];
  for (const row of table) {
    it(`scenario ${row.scenario} is ${row.outcome} (${row.cause}) and exits ${row.exitCode}`, async () => {
      const { run, account } = await runScenario(row.scenario);
      expect(account.outcome).toBe(row.outcome);
      expect(account.cause).toBe(row.cause);
      expect(run.exitCode).toBe(row.exitCode);
      expect(account.state).toBe('concluded');
    });
  }

  it('a refusal makes the attempt refused though the provider claimed success, and the completed turns are kept (R8.1, R8.2)', async () => {
    const { run, account } = await runScenario('refuse');
    expect(run.exitCode).toBe(1);
    expect(account.outcome).toBe('refused');
    expect(account.refusalCount).toBe(1);
    expect(account.refusals[0]?.verbatim).toEqual({ tool: 'Bash', input: { command: 'git push' }, rule: 'deny Bash(git push:*)' });
    expect(account.providerClaim).toMatchObject({ status: 'success', isError: false });
    expect(account.turns).toBe(2);
  });

  it('an absent cost is recorded as unknown, never zero (R4 row 5, R8.3)', async () => {
    const { account } = await runScenario('no-cost');
    expect(account.cost).toBe('unknown');
  });

  it('an init that applies less than the manifest declares is recorded as observed (R2.4)', async () => {
    const { account } = await runScenario('under-apply');
    expect(account.posture.capabilities.notApplied).toEqual(['cost-report']);
  });

  it('a required token the init did not apply is a finding in run and run show, said in the text as in --json (R2.4, R11)', async () => {
    // Only --json said it, and the attempt read as a clean completed, exit 0.
    const { run, account } = await runScenario('under-apply', '--require', 'cost-report');
    expect(account.outcome).toBe('completed');
    expect(account.posture.capabilities.notApplied).toEqual(['cost-report']);
    expect(run.exitCode).toBe(1);
    const shown = await runStatecraft(['run', 'show', targets.repository.path, account.runId, '--posture'], { home: targets.home.path });
    expect(shown.exitCode).toBe(1);
    expect(shown.stdout).toContain('not applied cost-report');
    expect(shown.stdout).toContain('REQUIRED, NOT APPLIED: cost-report — the attempt ran without it (a finding)');
    // Preferred, not required: said, and no finding.
    const preferred = await runScenario('under-apply', '--prefer', 'cost-report');
    expect(preferred.run.exitCode).toBe(0);
  });

  it('a malformed stream is reported as malformed, never a clean completion (R7.5)', async () => {
    const { account } = await runScenario('malformed');
    expect(account.streamError).toMatchObject({ kind: 'malformed', lineNumber: 2 });
  });

  it('a hung adapter is interrupted at a 2s deadline, timedOut, and leaves no process behind (R7.2, R7.3)', async () => {
    const started = Date.now();
    const { run, account } = await runScenario('hang', '--deadline', '2s');
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(run.exitCode).toBe(1);
    expect(account.outcome).toBe('interrupted');
    expect(account.cause).toBe('deadline');
    expect(account.timedOut).toBe(true);
    expect(account.posture.survivors).toEqual([]);
    const events = await readKeptEvents(account);
    const adapterPid = (events[0]?.['detail'] as { pid: number }).pid;
    const { descendantPid } = progressDetail(events, 'descendantPid') as { descendantPid: number };
    // In a PID namespace the adapter's own pid is namespace-local; the escaped descendant's is too.
    // What must hold either way: no process carrying this attempt's run id is alive.
    expect(await processesOfRun(account.runId)).toEqual([]);
    if (account.posture.containment.mechanism === 'process-group') {
      expect(await isAlive(adapterPid)).toBe(false);
      expect(await isAlive(descendantPid)).toBe(false);
    }
  });

  it('a hung adapter without the boundary runs in the unshare PID namespace, and is interrupted at the deadline with nothing left (R7.3)', async () => {
    const { run, account } = await runScenarioWith({ STATECRAFT_BOUNDARY: 'none' }, 'hang', '--deadline', '2s');
    // The path that ran: no boundary, so the containment is unshare's PID namespace (util-linux is a prerequisite).
    expect(account.posture.boundary.mechanism).toBe('none');
    expect(account.posture.containment.mechanism).toBe('pid-namespace');
    expect(run.exitCode).toBe(1);
    expect(account).toMatchObject({ outcome: 'interrupted', cause: 'deadline', timedOut: true });
    expect(await processesOfRun(account.runId)).toEqual([]);
  });

  it('a hung adapter under the process-group fallback (boundary none) is killed at the deadline with its setsid descendant (R7.3)', async () => {
    // The fallback runs only without the boundary, whose PID namespace is otherwise the containment.
    const { account } = await runScenarioWith({ STATECRAFT_CONTAINMENT: 'process-group', STATECRAFT_BOUNDARY: 'none' }, 'hang', '--deadline', '2s');
    expect(account.posture.boundary.mechanism).toBe('none');
    expect(account.posture.containment.mechanism).toBe('process-group');
    expect(account.outcome).toBe('interrupted');
    expect(account.timedOut).toBe(true);
    const events = await readKeptEvents(account);
    const adapterPid = (events[0]?.['detail'] as { pid: number }).pid;
    const { descendantPid } = progressDetail(events, 'descendantPid') as { descendantPid: number };
    expect(await isAlive(adapterPid)).toBe(false);
    expect(await isAlive(descendantPid)).toBe(false);
    expect(await processesOfRun(account.runId)).toEqual([]);
  });

  it('a descendant holding stdout after the adapter exits: completed and exit 0 when the namespace ends it, interrupted at the deadline and exit 1 otherwise (R7.4, R11)', async () => {
    const { run, account } = await runScenario('linger', '--deadline', '3s');
    // Under the boundary (bwrap) or unshare, the adapter is its namespace's main process: its exit ends the namespace.
    if (account.posture.containment.mechanism === 'pid-namespace' || account.posture.containment.mechanism === 'bwrap') {
      expect(account.outcome).toBe('completed');
      expect(run.exitCode).toBe(0);
    } else {
      expect(account.outcome).toBe('interrupted');
      expect(account.timedOut).toBe(true);
      expect(run.exitCode).toBe(1);
    }
    expect(await processesOfRun(account.runId)).toEqual([]);
  });

  it('a lingering descendant under the process-group fallback (boundary none) is interrupted at the deadline and exits 1 (R7.4, R11)', async () => {
    const { run, account } = await runScenarioWith({ STATECRAFT_CONTAINMENT: 'process-group', STATECRAFT_BOUNDARY: 'none' }, 'linger', '--deadline', '3s');
    expect(account.posture.boundary.mechanism).toBe('none');
    expect(account.posture.containment.mechanism).toBe('process-group');
    expect(account.outcome).toBe('interrupted');
    expect(account.timedOut).toBe(true);
    expect(run.exitCode).toBe(1);
    expect(await processesOfRun(account.runId)).toEqual([]);
  });

  it('report-cwd proves the adapter ran in the workspace, not in the operator checkout, and exits 0 (R7.1, R8.6, R11)', async () => {
    const { run, account } = await runScenario('report-cwd');
    expect(account.outcome).toBe('completed');
    expect(run.exitCode).toBe(0);
    const events = await readKeptEvents(account);
    const { cwd, marker } = progressDetail(events, 'marker') as { cwd: string; marker: string };
    expect(cwd).toBe(account.workspace);
    expect(account.workspace).not.toBe(targets.repository.path);
    expect(account.workspace.startsWith(join(targets.repository.path, '.statecraft', 'state') + '/')).toBe(true);
    expect(existsSync(join(account.workspace, marker))).toBe(true);
    expect(existsSync(join(targets.repository.path, marker))).toBe(false);
  });
});

/** Pids of living processes whose environment carries STATECRAFT_RUN_ID=<runId>. */
async function processesOfRun(runId: string): Promise<number[]> {
  const { readdir, readFile } = await import('node:fs/promises');
  const marker = `STATECRAFT_RUN_ID=${runId}\0`;
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const environ = await readFile(`/proc/${entry}/environ`, 'latin1').catch(() => '');
    if (environ.includes(marker) && (await isAlive(Number(entry)))) found.push(Number(entry));
  }
  return found;
}
