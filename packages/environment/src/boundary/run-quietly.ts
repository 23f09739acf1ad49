import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/**
 * Runs one short process to its end with a fixed PATH and nothing else in its environment. Its
 * stdin is `input` once that settles (ended without a byte for `undefined`), and its time limit
 * counts from then: a process that waits on its input is not timed while it waits. `descriptors`
 * are handed to it as 3, 4, … (a bwrap launch's binds and filter, launch-descriptors.ts); the
 * caller closes its own copies once this has returned.
 */
export function runQuietly(
  file: string,
  args: readonly string[],
  options: { cwd?: string; timeoutMs: number; input?: Promise<string | undefined>; descriptors?: readonly number[] },
): Promise<{ code: number | null; stdout: string; stderr: string; error?: string }> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let ended = false;
    let killed = false;
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    const child = spawn(file, [...args], {
      cwd: options.cwd,
      env: { PATH: '/usr/bin:/bin' },
      stdio: ['pipe', 'pipe', 'pipe', ...(options.descriptors ?? [])],
      // Its first three are pipes: what the descriptors after them add does not change that.
    }) as ChildProcessWithoutNullStreams;
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    let failure: Error | undefined;
    child.on('error', (error) => {
      failure = error;
    });
    child.on('close', (code, signal) => {
      ended = true;
      clearTimeout(timer);
      const out = Buffer.concat(stdout).toString('utf8');
      const err = Buffer.concat(stderr).toString('utf8');
      if (failure === undefined && code === 0) {
        resolve({ code: 0, stdout: out, stderr: err });
        return;
      }
      const timedOut = killed ? ` (killed after ${options.timeoutMs} ms)` : '';
      const why = failure?.message ?? `Command failed: ${file} ${args.join(' ')}${signal === null ? ` (exit ${code})` : ` (${signal})`}`;
      resolve({ code: failure === undefined ? code : null, stdout: out, stderr: err, error: `${why}${timedOut}` });
    });
    // A probe that already ended has closed its stdin: what is written to it then is nobody's.
    child.stdin.on('error', () => undefined);
    void (options.input ?? Promise.resolve(undefined)).then((text) => {
      if (ended) return;
      if (text !== undefined) child.stdin.write(text);
      child.stdin.end();
      timer = setTimeout(() => {
        killed = true;
        child.kill('SIGKILL');
      }, options.timeoutMs);
    });
  });
}
