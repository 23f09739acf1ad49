import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R13.2, R8.4: the candidate's changed paths are the agent's choice, and the outcome record that
// carries them is bounded (32 MiB a record). An agent that changes enough paths must not make its own
// outcome unwritable: past half the record's bound the candidate is not identified, saying why.

interface Account {
  outcome: string;
  state: string;
  candidate: string | { notIdentified: string } | { commit: string; changedPaths: string[] };
}

/** Files whose paths are about 4 KiB each (fifteen 250-byte directories deep): `count` of them. */
function createManyPathsAdapter(count: number): Promise<{ executable: string; remove: () => Promise<void> }> {
  return createScriptedAdapter(
    'many-paths',
    [
      "import { mkdirSync, writeFileSync } from 'node:fs';",
      "import { join } from 'node:path';",
      "const deep = join(...Array.from({ length: 15 }, (_, level) => String(level).padStart(250, 'd')));",
      'mkdirSync(deep, { recursive: true });',
      `for (let index = 0; index < ${count}; index += 1) writeFileSync(join(deep, String(index).padStart(200, 'f')), '');`,
      'init();',
      "emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });",
    ].join('\n'),
  );
}

const targets = useTestTargets({ sharedRepository: false });

describe("a candidate whose changed paths would not fit its outcome's record (R13.2, R8.4)", () => {
  it('is not identified, saying how many paths and bytes; the outcome is recorded, not refused as too long (exit 4)', async () => {
    // 9,000 paths of ~4 KiB: ~37 MB of names, past the record's own bound of 32 MiB.
    const adapter = await createManyPathsAdapter(9_000);
    try {
      const target = await targets.fresh();
      const run = await runStatecraft(['run', target.path, '--adapter', adapter.executable, '--prompt', 'go', '--deadline', '60s', '--json'], {
        home: targets.home.path,
        timeoutMs: 120_000,
      });
      expect(run.exitCode, run.stderr).toBe(0);
      const account = parseJson<Account>(run);
      expect(account.outcome).toBe('completed');
      expect(account.candidate).toEqual({
        notIdentified: expect.stringMatching(
          /^the candidate [0-9a-f]{40} changes 9000 paths, whose names take \d+ bytes in a record, more than a record keeps/,
        ) as unknown,
      });
      const listed = parseJson<{ attempts: Account[] }>(await runStatecraft(['run', 'list', target.path, '--json'], { home: targets.home.path }));
      expect(listed.attempts).toEqual([expect.objectContaining({ state: 'concluded', outcome: 'completed' })]);
    } finally {
      await adapter.remove();
    }
  });
});
