import type { SuiteHooks } from '@statecraft/acceptance';
import type { LiveLine } from './live-line.js';

/**
 * Live status of an acceptance on a terminal: one line per check, rewritten with
 * its elapsed time while it runs, kept with its ending when it ends.
 */
export function checkStatusHooks(live: LiveLine | undefined): { hooks: SuiteHooks & { onJudging: (what: { checks: number }) => void }; stop: () => void } {
  let ticker: NodeJS.Timeout | undefined;
  const stopTicker = (): void => {
    if (ticker !== undefined) clearInterval(ticker);
    ticker = undefined;
  };
  return {
    hooks: {
      onJudging: ({ checks }) => live?.commit(`accepting: ${checks} check${checks === 1 ? '' : 's'}, read at the base, over a fresh worktree of the candidate`),
      onCheckStart: ({ index, total, command }) => {
        if (live === undefined) return;
        const started = performance.now();
        const line = (): string => `  [${index + 1}/${total}] ${command}  ${((performance.now() - started) / 1000).toFixed(1)}s`;
        live.show(line());
        stopTicker();
        ticker = setInterval(() => live.show(line()), 250);
      },
      onCheckEnd: ({ index, total, run }) => {
        stopTicker();
        const ended = run.timedOut
          ? 'killed at its deadline'
          : run.exitCode === 0
            ? 'passed'
            : run.exitCode === null
              ? 'ended by a signal'
              : `exit ${run.exitCode}`;
        live?.commit(`  [${index + 1}/${total}] ${run.command}  ${(run.durationMs / 1000).toFixed(1)}s  ${ended}`);
      },
    },
    stop: stopTicker,
  };
}
