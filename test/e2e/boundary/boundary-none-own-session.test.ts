import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { parseJson, STATECRAFT_BIN, statecraftEnvironment } from '../../fixtures/statecraft-cli.js';

// With --boundary none and the PID-namespace containment the adapter was started in its
// supervisor's process group (found by a hostile tester): `kill -INT 0` reached the supervisor and
// the attempt read `cancelled (operator-cancel)`, which no adapter can produce (R8.1); `kill -STOP 0`
// froze the supervisor past its deadline (R7.2). What is spawned now leads a session of its own.

interface Account {
  outcome: string;
  cause: string;
  timedOut: boolean;
  durationMs: number;
  posture: { containment: { mechanism: string }; boundary: { mechanism: string } };
}

const targets = useTestTargets();

/** An adapter that signals its whole process group (`kill -<signal> 0`), then does `then`. */
async function runSignallingAdapter(signal: 'SIGINT' | 'SIGSTOP', then: string, ...extra: string[]) {
  const adapter = await createScriptedAdapter('group-signalling', ['init();', `process.kill(0, '${signal}');`, then].join('\n'));
  try {
    const args = ['run', targets.repository.path, '--adapter', adapter.executable, '--prompt', 'hi', '--boundary', 'none', '--json', ...extra];
    // In a process group of its own, as from a script (`setsid statecraft run …`): a signal that
    // reaches the supervisor's group then reaches no test runner.
    const started = execa(STATECRAFT_BIN, args, {
      env: statecraftEnvironment(targets.home.path),
      extendEnv: false,
      reject: false,
      detached: true,
      timeout: 30_000,
    });
    const ended = await started;
    // Should the supervisor have been stopped, what stays of its group (a stopped unshare) goes too.
    try {
      if (started.pid !== undefined) process.kill(-started.pid, 'SIGKILL');
    } catch {
      // ESRCH: the group is gone, as it should be.
    }
    const run = { args, exitCode: ended.exitCode ?? -1, stdout: ended.stdout, stderr: ended.stderr };
    return { run, account: parseJson<Account>(run) };
  } finally {
    await adapter.remove();
  }
}

const RESULT = "emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });";

describe("an adapter cannot signal its supervisor's process group, under any containment (R8.1, R7.2)", () => {
  it('`kill -INT 0` from the adapter is not an operator cancel: the attempt completes', async () => {
    const { run, account } = await runSignallingAdapter('SIGINT', `setTimeout(() => { ${RESULT} }, 300);`);
    expect(account.posture.boundary.mechanism).toBe('none');
    expect(account.posture.containment.mechanism).toBe('pid-namespace');
    expect({ outcome: account.outcome, cause: account.cause }).toEqual({ outcome: 'completed', cause: 'none' });
    expect(run.exitCode).toBe(0);
  });

  it('`kill -STOP 0` from the adapter does not stop the supervisor: the deadline still ends the attempt', async () => {
    const { run, account } = await runSignallingAdapter('SIGSTOP', 'setInterval(() => {}, 1000);', '--deadline', '2s');
    expect(account.posture.containment.mechanism).toBe('pid-namespace');
    expect({ outcome: account.outcome, cause: account.cause, timedOut: account.timedOut }).toEqual({
      outcome: 'interrupted',
      cause: 'deadline',
      timedOut: true,
    });
    expect(run.exitCode).toBe(1);
  });
});
