import { execFile } from 'node:child_process';

/**
 * Runs one short process to its end with a fixed PATH and nothing else in its environment. Its
 * stdin is `input` once that settles (ended without a byte for `undefined`), and its time limit
 * counts from then: a process that waits on its input is not timed while it waits.
 */
export function runQuietly(
  file: string,
  args: readonly string[],
  options: { cwd?: string; timeoutMs: number; input?: Promise<string | undefined> },
): Promise<{ code: number | null; stdout: string; stderr: string; error?: string }> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let ended = false;
    const child = execFile(file, [...args], { cwd: options.cwd, env: { PATH: '/usr/bin:/bin' }, encoding: 'utf8' }, (error, stdout, stderr) => {
      ended = true;
      clearTimeout(timer);
      const timedOut = error !== null && child.killed ? ` (killed after ${options.timeoutMs} ms)` : '';
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, stdout, stderr, ...(error === null ? {} : { error: `${error.message}${timedOut}` }) });
    });
    // A probe that already ended has closed its stdin: what is written to it then is nobody's.
    child.stdin?.on('error', () => undefined);
    void (options.input ?? Promise.resolve(undefined)).then((text) => {
      if (ended) return;
      if (text !== undefined) child.stdin?.write(text);
      child.stdin?.end();
      timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    });
  });
}
