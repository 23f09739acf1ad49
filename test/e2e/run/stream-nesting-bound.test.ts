import { afterAll, describe, expect, it } from 'vitest';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

const targets = useTestTargets();
const removals: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const remove of removals) await remove();
});

interface Account {
  outcome: string;
  cause: string;
  refusalCount: number;
  streamDiagnostic: { kind: string; reason: string } | string;
}

/**
 * `run` of an adapter that writes init, then `before` (more events), then a result whose claim's
 * detail is `depth` arrays nested in each other.
 */
async function runDeepClaim(name: string, depth: number, before = '') {
  const adapter = await createScriptedAdapter(
    name,
    `init();
${before}
const deep = '['.repeat(${depth}) + ']'.repeat(${depth});
process.stdout.write(line({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: { d: 0 } }, turns: 1 }).replace('"d":0', '"d":' + deep));`,
  );
  removals.push(adapter.remove);
  const repository = await targets.fresh();
  return {
    repository,
    ran: await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--prompt', 'go', '--json'], { home: targets.home.path }),
  };
}

/**
 * A short line nested deeper than node can write back:
 * a refusal, then a result whose claim nests 10,000 arrays deep — 20 KB, far under the line
 * bound. The outcome record could not be serialised (the stack overflowed), so `run` exited 4
 * with the intent dangling and the refusal nowhere but in the kept stream. Now the line is
 * malformed (R7.5): the attempt is `interrupted` and its refusal counted.
 */
describe('a line nested deeper than the bound is malformed, and the attempt is recorded (R7.5)', () => {
  it('a refusal then a 10,000-deep claim: interrupted (malformed), the refusal counted, exit 1, nothing dangling', async () => {
    const { repository, ran } = await runDeepClaim(
      'deep-claim',
      10_000,
      `emit({ type: 'refusal', tool: 'Bash', verbatim: { tool: 'Bash', input: { command: 'git push' } } });`,
    );
    expect(ran.exitCode, ran.stderr).toBe(1);
    const account = parseJson<Account>(ran);
    expect(account).toMatchObject({ outcome: 'interrupted', refusalCount: 1 });
    expect(JSON.stringify(account.streamDiagnostic)).toContain('nested deeper than the limit of 128 levels');
    const list = parseJson<{ attempts: { state: string }[] }>(await runStatecraft(['run', 'list', repository.path, '--json'], { home: targets.home.path }));
    expect(list.attempts).toEqual([expect.objectContaining({ state: 'concluded' })]);
  });

  it('a claim nested to the bound exactly is read as it is: completed', async () => {
    // The line's own object and the claim and detail objects are three levels; the arrays make the rest.
    const { ran } = await runDeepClaim('bound-deep-claim', 125);
    expect(ran.exitCode, ran.stderr).toBe(0);
    expect(parseJson<Account>(ran).outcome).toBe('completed');
  });
});
