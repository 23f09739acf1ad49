import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { processesWithArgument } from './fixtures/processes-with-argument.js';
import { useTestTargets } from './fixtures/sample-repository.js';
import { createScriptedAdapter } from './fixtures/scripted-adapter.js';
import { scratchDirectories } from './fixtures/scratch-directories.js';
import { STATECRAFT_BIN, statecraftEnvironment } from './fixtures/statecraft-cli.js';

// What statecraft spawns leads a session of its own (spawn-adapter.ts), out of the shell's process
// group: a supervisor killed outright (SIGKILL, the OOM killer) no longer takes its adapter with it
// through a terminal's group signals. Under the PID namespace, unshare is started with setpriv's
// parent-death signal, and its --kill-child takes the namespace with it.

const targets = useTestTargets();
const scratch = scratchDirectories();

/** Polls until `ready` holds or `ms` pass; answers whether it held. */
async function until(ready: () => boolean, ms: number): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < ms; await sleep(25)) if (ready()) return true;
  return ready();
}

describe('a supervisor killed outright (R7.2, R7.3)', () => {
  it('under the PID namespace (`--boundary none`), takes the adapter and its namespace with it', async () => {
    // The adapter says it has started by a file: statecraft's own command line names the adapter too.
    const started = join(await scratch.make('statecraft-adapter-started'), 'started');
    const body = ['init();', `require('node:fs').writeFileSync(${JSON.stringify(started)}, '');`, 'setInterval(() => {}, 1000);'].join('\n');
    const adapter = await createScriptedAdapter('outlives-its-supervisor', body);
    try {
      const supervisor = execa(
        STATECRAFT_BIN,
        ['run', targets.repository.path, '--adapter', adapter.executable, '--prompt', 'hi', '--boundary', 'none', '--deadline', '120s', '--json'],
        { env: statecraftEnvironment(targets.home.path), extendEnv: false, reject: false, detached: true, timeout: 60_000 },
      );
      expect(await until(() => existsSync(started), 20_000), 'the adapter started').toBe(true);
      expect(
        processesWithArgument(adapter.executable).length,
        'statecraft, unshare and the adapter: the PID namespace ran, not the fallback',
      ).toBeGreaterThanOrEqual(3);
      expect(supervisor.pid).toBeDefined();
      process.kill(supervisor.pid!, 'SIGKILL');
      await supervisor;
      const gone = await until(() => processesWithArgument(adapter.executable).length === 0, 5_000);
      // Whatever is left is this test's to end, so nothing outlives it.
      for (const pid of processesWithArgument(adapter.executable)) process.kill(pid, 'SIGKILL');
      expect(gone, 'the adapter ended with its supervisor').toBe(true);
    } finally {
      await adapter.remove();
    }
  });
});
