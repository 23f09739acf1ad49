import { describe, expect, it } from 'vitest';
import { type AcceptanceAnswer, candidateRunning, repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R13.3, R13.4 (hostile): every check runs over exactly the candidate. The reading after each check
// is `git status`, and the leftovers removed are what it names as ignored. Git lists only regular
// files and links, and only their content and executable bit: an empty directory, a named pipe, a
// socket, a file's other mode bits, a directory's mode, an extended attribute (of a tracked file or
// of the TMPDIR itself) are never listed, so an earlier check (the candidate's code) leaves them to
// the checks after it, which read them. Each case here has a second check that fails over the
// candidate alone (run first, or run alone) and passes only on what the first check left behind:
// a candidate that fails its suite must never read `accepted`.

const targets = useTestTargets({ sharedRepository: false });

async function judge(checks: string[], script: string): Promise<{ exitCode: number; acceptance: AcceptanceAnswer }> {
  const declaration = { project: { commands: ['node', 'test', 'sh', 'python3'] }, acceptance: { checks } };
  const repository = await repositoryWithSuite(
    targets,
    { checks },
    { '.gitignore': 'ignored/\n', 'data/keep.txt': 'tracked\n', '.statecraft/environment.json': `${JSON.stringify(declaration)}\n` },
  );
  const home = { home: targets.home.path };
  const run = await runStatecraft(
    ['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'build.mjs', candidateRunning(script)), '--json'],
    home,
  );
  expect(run.exitCode).toBe(0);
  const { runId } = parseJson<{ runId: string }>(run);
  const judged = await runStatecraft(['accept', repository.path, runId, '--json'], { ...home, timeoutMs: 120_000 });
  return { exitCode: judged.exitCode, acceptance: parseJson<AcceptanceAnswer>(judged) };
}

const XATTR_READ = (path: string): string => `python3 -c "import os,sys; sys.exit(0 if os.getxattr(${path}, 'user.verdict') == b'pass' else 1)"`;
const XATTR_WRITE = (path: string): string => `python3 -c "import os; os.setxattr(${path}, 'user.verdict', b'pass')"`;

/** [what the first check leaves, the planting script, the second check that reads it]. */
const LEFTOVERS: [string, string, string][] = [
  ['an empty directory', 'mkdir verdict-pass', 'test -d verdict-pass'],
  ['a tree of empty directories whose names carry data', 'mkdir -p carried/pass', 'sh -c "ls carried | grep -qx pass"'],
  ['a named pipe', 'mkfifo verdict-pass', 'test -p verdict-pass'],
  ['a socket file', `python3 -c "import socket; socket.socket(socket.AF_UNIX).bind('verdict-pass')"`, 'test -S verdict-pass'],
  ["a tracked file's mode (not its executable bit)", 'chmod 600 data/keep.txt', 'sh -c "test $(stat -c %a data/keep.txt) = 600"'],
  ["a tracked directory's mode", 'chmod 701 data', 'sh -c "test $(stat -c %a data) = 701"'],
  ['an extended attribute of a tracked file', XATTR_WRITE("'data/keep.txt'"), XATTR_READ("'data/keep.txt'")],
  ['an extended attribute of the TMPDIR', XATTR_WRITE("os.environ['TMPDIR']"), XATTR_READ("os.environ['TMPDIR']")],
];

describe('a check that leaves the checks after it what git status does not list (R13.3, R13.4)', () => {
  it.each(LEFTOVERS)('the second check fails over the candidate alone: %s', async (_what, _plant, read) => {
    const { acceptance } = await judge(['node build.mjs', read], 'true');
    expect(acceptance.checks.map((check) => check.exitCode)).toEqual([0, 1]);
    expect(acceptance).toMatchObject({ verdict: 'failed', receipt: null });
  });

  it.each(LEFTOVERS)('never accepts the candidate on what an earlier check left: %s', async (_what, plant, read) => {
    const { exitCode, acceptance } = await judge(['node build.mjs', read], plant);
    expect(acceptance.verdict).not.toBe('accepted');
    expect(acceptance.receipt).toBeNull();
    expect(exitCode).not.toBe(0);
  });
});
