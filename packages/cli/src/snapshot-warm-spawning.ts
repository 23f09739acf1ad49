/**
 * Run only while the start-up snapshot is built (main.ts): node compiles much of its own code for
 * spawning a child with pipes (the child process, its sockets, its streams) on first use, and so
 * does execa, and a start from the snapshot paid it on its first spawn of each — the target's
 * `git rev-parse`, first on the path of every `run` and `accept`, and the adapter's or the first
 * check's spawn through execa. One short
 * child spawned each way statecraft spawns — node's `execFile` (git, the boundary's probe) and
 * execa with the adapter's options (supervise/spawn-adapter.ts) — leaves that code compiled in the
 * snapshot — and node's `execFile` as the boundary's probe uses it (its output decoded as text, a
 * line written to its stdin before it is closed). Each child is this node, printing its version or
 * echoing its stdin. The build's event loop runs until all have ended and their pipes are closed,
 * before the snapshot is taken, so nothing of them is held there; execa's kill-on-exit is off for
 * it, so no signal handler is ever installed.
 */
import { execFile } from 'node:child_process';
import { execa } from 'execa';

export function warmSpawningForSnapshot(): void {
  const child = execFile(process.execPath, ['--version'], { env: {}, encoding: 'buffer' }, () => undefined);
  child.stdin?.end();
  const probeLike = execFile(
    process.execPath,
    ['-e', 'process.stdin.pipe(process.stdout); process.stderr.write("e")'],
    { env: {}, encoding: 'utf8' },
    () => undefined,
  );
  probeLike.stderr?.setEncoding('utf8');
  probeLike.stdin?.on('error', () => undefined);
  probeLike.stdin?.write('go\n');
  probeLike.stdin?.end(Buffer.from('prompt'));
  const contained = execa(process.execPath, ['--version'], {
    env: {},
    extendEnv: false,
    shell: false,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    encoding: 'buffer',
    cleanup: false,
  });
  contained.stdin?.end();
  contained.stdout?.resume();
  contained.stderr?.resume();
  void contained.catch(() => undefined);
}
