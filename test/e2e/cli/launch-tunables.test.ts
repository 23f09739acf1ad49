import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { countingGit } from '../../fixtures/counting-git.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

const targets = useTestTargets();
const scratch = scratchDirectories();

const TUNED = 'glibc.malloc.hugetlb=1';
const OPERATORS = 'glibc.malloc.tcache_count=7';

/**
 * Each git statecraft starts logs, from its own environment, GLIBC_TUNABLES and the launcher's
 * marker, and whether its parent — statecraft's node process — was started with the launcher's
 * tunable (its environment as exec'd, /proc/<ppid>/environ, which later changes do not rewrite).
 */
const LOGGED =
  "\"parent:$(tr '\\0' '\\n' < /proc/$PPID/environ | grep -cx 'GLIBC_TUNABLES=" +
  TUNED +
  '\') own:${GLIBC_TUNABLES-unset} marker:${STATECRAFT_LAUNCH_GLIBC_TUNABLES-unset}"';

interface Account {
  outcome: string;
  posture: { environment: { names: { name: string }[]; absent: { name: string }[] } };
}

async function runLogged(env: Record<string, string>): Promise<{ account: Account; lines: string[] }> {
  const git = await countingGit(scratch, LOGGED);
  const run = await runStatecraft(
    ['run', targets.repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--pass', 'GLIBC_TUNABLES', '--json'],
    { home: targets.home.path, env: { PATH: `${git.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, ...env } },
  );
  expect(run.exitCode).toBe(0);
  const lines = (await readFile(git.log, 'utf8')).split('\n').filter((line) => line !== '');
  // Planning, the workspace, the candidate: a run starts git several times.
  expect(lines.length).toBeGreaterThanOrEqual(3);
  return { account: parseJson<Account>(run), lines };
}

/**
 * The git processes that inherit statecraft's environment (planning's rev-parse, the workspace's
 * worktree add) carry the operator's value exactly; those run with an environment built for them
 * (reading the base, the candidate) carry none, as they always did. Node started without the tunable.
 */
function expectOperatorsValue(lines: readonly string[]): void {
  for (const line of lines) expect([`parent:0 own:${OPERATORS} marker:unset`, 'parent:0 own:unset marker:unset']).toContain(line);
  expect(lines.filter((line) => line.includes(`own:${OPERATORS}`)).length).toBeGreaterThanOrEqual(2);
}

// bin/statecraft starts node with glibc's malloc on transparent huge pages (fewer page faults at
// every start: docs/decisions.md, 2026-12-01), for statecraft's own process only. What the operator's
// environment holds is what every child and every record sees: the child's environment is built
// from it and recorded (R5.1, R6), and git runs in it.
describe("the launcher's malloc tunable is statecraft's own: children and records see the operator's environment (R5.1, R6)", () => {
  it('an operator with no GLIBC_TUNABLES: node starts with the tunable, and no child, plan or record sees it', async () => {
    const { account, lines } = await runLogged({});
    expect(account.outcome).toBe('completed');
    for (const line of lines) expect(line).toBe('parent:1 own:unset marker:unset');
    // Asked for by name, it is absent, as the operator's environment has it.
    expect(account.posture.environment.absent.map(({ name }) => name)).toContain('GLIBC_TUNABLES');
    expect(account.posture.environment.names.map(({ name }) => name)).not.toContain('GLIBC_TUNABLES');
  });

  it("an operator's own GLIBC_TUNABLES is left exactly as given: not added to, not removed, and passed when asked", async () => {
    const { account, lines } = await runLogged({ GLIBC_TUNABLES: OPERATORS });
    expectOperatorsValue(lines);
    expect(account.posture.environment.names.map(({ name }) => name)).toContain('GLIBC_TUNABLES');
  });

  it('an empty GLIBC_TUNABLES is the way to start without the tunable: left empty, and passed on as it is', async () => {
    const { lines } = await runLogged({ GLIBC_TUNABLES: '' });
    for (const line of lines) expect(['parent:0 own: marker:unset', 'parent:0 own:unset marker:unset']).toContain(line);
    expect(lines.filter((line) => line === 'parent:0 own: marker:unset').length).toBeGreaterThanOrEqual(2);
  });

  it("an operator's environment naming the launcher's marker cannot make statecraft remove the operator's GLIBC_TUNABLES", async () => {
    const { lines } = await runLogged({ GLIBC_TUNABLES: OPERATORS, STATECRAFT_LAUNCH_GLIBC_TUNABLES: OPERATORS });
    expectOperatorsValue(lines);
  });
});
