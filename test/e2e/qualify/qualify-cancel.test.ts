import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { finishedRun, parseJson, startStatecraft } from '../../fixtures/statecraft-cli.js';

/**
 * Issue 29 item 12: Ctrl-C during `qualify` printed nothing and left the suite's scratch directory
 * in the temporary directory. Now SIGINT and SIGTERM, wherever they land in the suite, cancel the
 * attempt running, say so, record nothing, and remove what the suite made.
 */

interface Qualified {
  passed: boolean;
  record: unknown;
  cases: { row: number; status: string; detail: string }[];
}

const scratch = scratchDirectories();

/** What is left in a directory (none when it was never made). */
const left = (directory: string) => readdir(directory).catch(() => [] as string[]);

/** Where the signal is sent: once the suite's nth attempt has its directory in the scratch directory, or a time after the start. */
type When = { attempt: number } | { afterMs: number };

const POINTS: { name: string; when: When; json: boolean }[] = [
  { name: 'as the first attempt starts', when: { attempt: 1 }, json: false },
  { name: 'as the fifth attempt starts, with --json', when: { attempt: 5 }, json: true },
  { name: 'a second in', when: { afterMs: 1_000 }, json: false },
];

/** Polls the temporary directory until the suite's scratch directory holds `attempt-<n>`; then calls `then`. */
function whenAttemptStarts(temporary: string, attempt: number, then: () => void, ended: () => boolean): void {
  const look = async (): Promise<void> => {
    if (ended()) return;
    for (const name of await left(temporary)) {
      if (name.startsWith('statecraft-suite-') && (await left(join(temporary, name))).includes(`attempt-${attempt}`)) return then();
    }
    setTimeout(() => void look(), 20);
  };
  void look();
}

describe('qualify interrupted by the operator (issue 29 item 12)', () => {
  describe.each(['SIGINT', 'SIGTERM'] as const)('%s', (signal) => {
    it.each(POINTS)('$name: says it was cancelled, records nothing, removes its scratch directory', async ({ when, json }) => {
      const home = await scratch.make('statecraft-qualify-cancel-home');
      const temporary = await scratch.make('statecraft-qualify-cancel-tmp');
      const started = startStatecraft(['qualify', '--fixture', ...(json ? ['--json'] : [])], { home, env: { TMPDIR: temporary }, timeoutMs: 120_000 });
      let sentAt = 0;
      const send = () => {
        if (sentAt !== 0) return;
        sentAt = Date.now();
        started.kill(signal);
      };
      let ended = false;
      if ('attempt' in when) whenAttemptStarts(temporary, when.attempt, send, () => ended);
      else setTimeout(send, when.afterMs);
      const run = await finishedRun(started);
      ended = true;
      expect(sentAt, `the signal was never sent; the suite ended on its own: ${run.stdout}`).toBeGreaterThan(0);
      expect(Date.now() - sentAt, run.stderr).toBeLessThan(30_000);

      expect(run.exitCode, run.stderr).toBe(1);
      expect(run.stderr).toContain('statecraft: qualify cancelled by the operator');
      expect(run.stderr).toContain('nothing was recorded');
      expect(await left(temporary)).toEqual([]);
      expect(await left(join(home, 'qualifications'))).toEqual([]);
      if (json) {
        const answer = parseJson<Qualified>(run);
        expect(answer.passed).toBe(false);
        expect(answer.record).toBeNull();
        expect(answer.cases.some((entry) => entry.status === 'not-run' && entry.detail.includes('the operator cancelled the suite'))).toBe(true);
      } else {
        expect(run.stdout).toContain('not run: the operator cancelled the suite');
      }
    });
  });
});
