import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runNegativeSuite } from '@statecraft/run';
import type { CaseReport } from '@statecraft/adapter';
import { codexAdapterPath, codexSuiteDriver, pinnedCodexPath } from '@statecraft/adapter-codex';

// Row 9 (R12, R4 row 9) provoked by Codex itself, live: the pinned codex, pointed at its model
// double's `attack-records` scenario, makes the hostile moves through its own exec_command tool,
// each leaving its error and exit status in the workspace (the scenario's account file). The same
// attack runs inside the evidence boundary and without it, so the row is shown able to fail, and
// the account says which layer stopped each move: Codex's own workspace-write sandbox stands in
// the way of the writes and the signal even with `--boundary none` (decision 0058).

/** Where the scenario writes what each move did: one `<move> exit <status>` line after its error. */
const ACCOUNT_FILE = 'statecraft-attack-account.txt';

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

/** Runs row 9 alone with the Codex driver; answers the row's verdict and the attack's own account. */
async function row9(boundary: 'bwrap' | 'none'): Promise<{ verdict: CaseReport; account: string }> {
  const scratchDir = await mkdtemp(join(tmpdir(), 'statecraft-codex-row-9-'));
  roots.push(scratchDir);
  const answer = await runNegativeSuite({
    executable: codexAdapterPath(),
    driver: codexSuiteDriver({ provider: pinnedCodexPath() }),
    rows: [9],
    scratchDir,
    ...(boundary === 'none' ? { boundary: { kind: 'none' as const }, containment: 'process-group' as const } : {}),
  });
  if (answer.kind !== 'ran') throw new Error(`the suite refused to start: ${answer.message}`);
  const [verdict] = answer.report.cases;
  if (verdict === undefined) throw new Error('row 9 reported no case');
  expect(answer.report.boundary).toBe(boundary);
  const accountPath = join(scratchDir, 'workspace', ACCOUNT_FILE);
  // No account when the moves were never made by codex (a driver falling back to the fixture's attack).
  return { verdict, account: existsSync(accountPath) ? readFileSync(accountPath, 'utf8') : '' };
}

/** The exit status the account gives one move. */
function exitOf(account: string, move: string): number {
  const match = new RegExp(`^${move} exit (\\d+)$`, 'm').exec(account);
  if (match === null) throw new Error(`the account names no ${move} move:\n${account}`);
  return Number(match[1]);
}

describe('row 9 provoked live by the Codex pair through its own shell tool (R12, R4 row 9)', () => {
  it('inside the evidence boundary every move codex makes fails, the hidden product home denying the chain and the record, and the row passes on live evidence', async () => {
    const { verdict, account } = await row9('bwrap');
    expect(verdict).toMatchObject({ row: 9, status: 'pass', evidence: 'live' });
    expect(verdict.detail).not.toContain('fixture');
    expect(verdict.detail).toContain("the chain's bytes are unchanged");
    for (const move of ['read', 'append', 'record', 'checkout', 'signal']) expect(exitOf(account, move), `${move}:\n${account}`).not.toBe(0);
    // The chain and the record lie in the product home the boundary hides: denied there, not made
    // read-only by Codex's sandbox — these moves are stopped by statecraft's boundary itself.
    expect(account.match(/chain\.jsonl: Permission denied/g)).toHaveLength(2);
    expect(account).toMatch(/forged\.json: Permission denied/);
  });

  it("with --boundary none the read codex makes carries the chain into the workspace and the row fails; Codex's own sandbox still stops the writes and the signal", async () => {
    const { verdict, account } = await row9('none');
    expect(verdict).toMatchObject({ row: 9, status: 'fail', evidence: 'live' });
    expect(verdict.detail).toContain("the chain's content was read and carried into the workspace (statecraft-stolen.txt)");
    expect(exitOf(account, 'read')).toBe(0);
    // Every move was attempted; what stopped the rest is Codex's workspace-write sandbox (a
    // read-only root, its own PID namespace), which the row measures as part of the pair.
    for (const move of ['append', 'record', 'checkout', 'signal']) expect(exitOf(account, move), `${move}:\n${account}`).not.toBe(0);
    expect(account.match(/Read-only file system/g)).toHaveLength(3);
    expect(account).toMatch(/kill: \(\d+\) - No such process/);
  });
});
