import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ATTEMPT_TAG_VARIABLE, findAttemptProcesses } from '@statecraft/adapter';

// A later reader is a separate node process that imports the built @statecraft/adapter.
const freshTag = () => `test-${randomUUID()}`;

describe('the sweep of tagged processes, by age (R7.3)', () => {
  it('finds a tagged process to any later reader, and skips it only for a process started after it (a supervisor cannot have tagged it)', async () => {
    const { spawn, execFileSync } = await import('node:child_process');
    const tag = freshTag();
    const older = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { env: { ...process.env, [ATTEMPT_TAG_VARIABLE]: tag }, stdio: 'ignore' });
    try {
      // Emitted once the exec has happened: from then on /proc shows the tagged environment.
      await once(older, 'spawn');
      // This process is older than the tagged one: the filter keeps it.
      expect(findAttemptProcesses(tag, undefined, 'started-since-this-process')).toEqual([older.pid]);
      // A process started later (doctor, say) finds it with `any`, and rightly skips it with the filter.
      // Clock ticks are 10 ms: the reader starts well after the tagged process.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const read = (age: string): number[] =>
        JSON.parse(
          execFileSync(
            process.execPath,
            [
              '--input-type=module',
              '-e',
              `import { findAttemptProcesses } from '@statecraft/adapter'; console.log(JSON.stringify(findAttemptProcesses(${JSON.stringify(tag)}, undefined, '${age}')))`,
            ],
            {
              encoding: 'utf8',
            },
          ),
        ) as number[];
      expect(read('any')).toEqual([older.pid]);
      expect(read('started-since-this-process')).toEqual([]);
    } finally {
      older.kill('SIGKILL');
    }
  });
});
