import { describe, expect, it } from 'vitest';
import { isAlive } from '../../fixtures/attempt-stream.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R7.3: "A survivor is reported as a residual of the attempt, never as a clean end." Under the
// process-group fallback an adapter that sends its result and leaves a setsid'd descendant behind
// read `completed`, exit 0, with the survivor listed beside it (found by a hostile tester).

interface Account {
  runId: string;
  outcome: string;
  cause: string;
  posture: { containment: { mechanism: string }; survivors: { pid: number; command: string }[] };
}

const targets = useTestTargets();

describe('an attempt that leaves a process behind is not a clean end (R7.3, R8.1)', () => {
  it('a completed stream with a setsid descendant left running is interrupted (processes-left), exit 1, and its kept stream classified again agrees', async () => {
    const adapter = await createScriptedAdapter(
      'leaving',
      [
        "import { spawn } from 'node:child_process';",
        'init();',
        // Not a group leader, so setsid(1) leaves the group in place and becomes `sleep 304` (no fork).
        "const left = spawn('setsid', ['sleep', '304'], { stdio: 'ignore' });",
        'left.unref();',
        "left.once('spawn', () => emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 }));",
      ].join('\n'),
    );
    try {
      // The fallback runs only without the boundary, whose PID namespace is otherwise the containment.
      const run = await runStatecraft(['run', targets.repository.path, '--adapter', adapter.executable, '--prompt', 'hi', '--boundary', 'none', '--json'], {
        home: targets.home.path,
        env: { STATECRAFT_CONTAINMENT: 'process-group' },
      });
      const account = parseJson<Account>(run);
      expect(account.posture.containment.mechanism).toBe('process-group');
      // `setsid sleep 304` when the sweep comes before setsid(1) has exec'd its program.
      expect(account.posture.survivors).toEqual([expect.objectContaining({ command: expect.stringContaining('sleep 304') as unknown })]);
      expect({ outcome: account.outcome, cause: account.cause }).toEqual({ outcome: 'interrupted', cause: 'processes-left' });
      expect(run.exitCode).toBe(1);
      // The sweep killed what it found: nothing is left running once the answer is given.
      for (const survivor of account.posture.survivors) expect(await isAlive(survivor.pid)).toBe(false);

      const shown = await runStatecraft(['run', 'show', targets.repository.path, account.runId, '--posture'], { home: targets.home.path });
      expect(shown.stdout).toContain(`attempt 1: interrupted (processes-left)`);
      expect(shown.stdout).toContain('outcome check     agrees with the kept stream');
    } finally {
      await adapter.remove();
    }
  });
});
