import { describe, expect, it } from 'vitest';
import { type AcceptanceAnswer, repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R13.3, R13.4, R13.6 (hostile): a receipt says every check exited 0. A check's exit code is read
// from bwrap, whose outer process takes it from an eventfd held by bwrap's init — pid 1 of the
// check's own PID namespace, same uid, no capability. Candidate code in the check copies that
// descriptor (pidfd_getfd on pid 1, where no Yama restricts it) and writes 1 to it: the outer bwrap
// exits 0 at once, as if the check had, while the check's own command goes on to exit 1. The
// candidate fails its only check, and must not read `accepted`.

const targets = useTestTargets({ sharedRepository: false });

/** One line of Python: copies every eventfd of pid 1 and writes 1 to it (when `forge`), then exits 1 two seconds later. */
function checkScript(forge: boolean): string {
  const steal = [
    'libc = ctypes.CDLL(None, use_errno=True)',
    'pidfd = os.pidfd_open(1)',
    "fds = [int(n) for n in os.listdir('/proc/1/fd') if 'eventfd' in os.readlink('/proc/1/fd/' + n)]",
    "[os.write(libc.syscall(438, pidfd, n, 0), struct.pack('<Q', 1)) for n in fds]",
  ];
  return ['import ctypes, os, struct, time', ...(forge ? steal : []), 'time.sleep(2)', 'raise SystemExit(1)'].join('; ');
}

async function judge(forge: boolean): Promise<{ exitCode: number; acceptance: AcceptanceAnswer }> {
  const checks = ['python3 check.py'];
  const declaration = { project: { commands: ['python3'] }, acceptance: { checks } };
  const repository = await repositoryWithSuite(targets, { checks }, { '.statecraft/environment.json': `${JSON.stringify(declaration)}\n` });
  const home = { home: targets.home.path };
  const run = await runStatecraft(
    ['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'check.py', checkScript(forge)), '--json'],
    home,
  );
  expect(run.exitCode).toBe(0);
  const { runId } = parseJson<{ runId: string }>(run);
  const judged = await runStatecraft(['accept', repository.path, runId, '--json'], { ...home, timeoutMs: 120_000 });
  return { exitCode: judged.exitCode, acceptance: parseJson<AcceptanceAnswer>(judged) };
}

describe("a check that writes its own exit into bwrap's eventfd (R13.3, R13.6)", () => {
  it('fails the candidate whose check exits 1', async () => {
    const { exitCode, acceptance } = await judge(false);
    expect(acceptance.checks.map((check) => check.exitCode)).toEqual([1]);
    expect(acceptance).toMatchObject({ verdict: 'failed', reason: 'check-failed', receipt: null });
    expect(exitCode).toBe(1);
  });

  it('never reads the check as exiting 0, nor accepts the candidate, when it forged the exit', async () => {
    const { exitCode, acceptance } = await judge(true);
    expect(acceptance.checks.map((check) => check.exitCode)).not.toEqual([0]);
    expect(acceptance.verdict).not.toBe('accepted');
    expect(acceptance.receipt).toBeNull();
    expect(exitCode).not.toBe(0);
  });
});
