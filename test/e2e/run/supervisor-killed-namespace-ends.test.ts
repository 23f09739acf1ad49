import { existsSync } from 'node:fs';
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { processesWithArgument } from '../../fixtures/processes-with-argument.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { STATECRAFT_BIN, statecraftEnvironment } from '../../fixtures/statecraft-cli.js';
import { until } from '../../fixtures/until.js';

// What statecraft spawns leads a session of its own (spawn-adapter.ts), out of the shell's process
// group: a supervisor killed outright (SIGKILL, the OOM killer) no longer takes its adapter with it
// through a terminal's group signals. Under the PID namespace, unshare is started with setpriv's
// parent-death signal, and its --kill-child takes the namespace with it; where neither holds (an
// adapter that clears its own parent-death signal, the process-group fallback) the warden
// (supervisor-death-warden.ts) kills the group and the tagged processes once the supervisor is gone.

const targets = useTestTargets();
const scratch = scratchDirectories();

/** A supervisor of `adapter` in the background, as an operator's terminal would start it, with these extra words and variables. */
function superviseInBackground(adapter: string, words: string[], env: Record<string, string> = {}) {
  return execa(
    STATECRAFT_BIN,
    ['run', targets.repository.path, '--adapter', adapter, '--prompt', 'hi', '--boundary', 'none', '--deadline', '120s', '--json', ...words],
    { env: { ...statecraftEnvironment(targets.home.path), ...env }, extendEnv: false, reject: false, detached: true, timeout: 60_000 },
  );
}

/** Kills the supervisor outright, then answers whether every process naming `argument` ended within 5 s (ending any left itself). */
async function killSupervisorThenAllGone(supervisor: ReturnType<typeof superviseInBackground>, argument: string): Promise<boolean> {
  expect(supervisor.pid).toBeDefined();
  process.kill(supervisor.pid!, 'SIGKILL');
  await supervisor;
  const gone = await until(() => processesWithArgument(argument).length === 0, 5_000, 25);
  // Whatever is left is this test's to end, so nothing outlives it.
  for (const pid of processesWithArgument(argument)) process.kill(pid, 'SIGKILL');
  return gone;
}

/** A node adapter that says it started by a file, starts `descendants` more of itself in sessions of their own, and runs on. */
async function adapterThatRunsOn(name: string, descendants = 0) {
  const started = join(await scratch.make('statecraft-adapter-started'), 'started');
  const body = [
    'init();',
    `if (process.argv[2] !== 'descendant') for (let i = 0; i < ${descendants}; i += 1) require('node:child_process').spawn(process.execPath, [__filename, 'descendant'], { detached: true, stdio: 'ignore' }).unref();`,
    `if (process.argv[2] !== 'descendant') require('node:fs').writeFileSync(${JSON.stringify(started)}, '');`,
    'setInterval(() => {}, 1000);',
  ].join('\n');
  return { adapter: await createScriptedAdapter(name, body), started };
}

describe('a supervisor killed outright (R7.2, R7.3)', () => {
  it('under the PID namespace, ends an adapter that cleared its own parent-death signal (the warden)', async () => {
    // The namespace's first process is the adapter: `setpriv --pdeathsig clear` undoes what unshare's
    // --kill-child set on it, so only the warden's kill of unshare's group ends the namespace.
    const { adapter, started } = await adapterThatRunsOn('clears-its-pdeathsig');
    const wrapper = `${adapter.executable}-without-pdeathsig`;
    await writeFile(wrapper, `#!/bin/sh\nexec setpriv --pdeathsig clear -- ${adapter.executable} "$@"\n`, { mode: 0o755 });
    await copyFile(`${adapter.executable}.manifest.json`, `${wrapper}.manifest.json`);
    try {
      const supervisor = superviseInBackground(wrapper, []);
      expect(await until(() => existsSync(started), 20_000, 25), 'the adapter started').toBe(true);
      expect(processesWithArgument(adapter.executable).length, 'the adapter runs').toBeGreaterThanOrEqual(1);
      // This attempt's own unshare (its argv names the wrapper), not another test's.
      const ours = new Set(processesWithArgument(wrapper));
      expect(processesWithArgument('--kill-child').filter((pid) => ours.has(pid)).length, 'the PID namespace ran, not the fallback').toBeGreaterThanOrEqual(1);
      expect(await killSupervisorThenAllGone(supervisor, adapter.executable), 'the adapter ended with its supervisor').toBe(true);
    } finally {
      await adapter.remove();
    }
  });

  it('in the process-group fallback, ends the adapter and the descendants that left its group (the warden)', async () => {
    const { adapter, started } = await adapterThatRunsOn('outlives-its-group-supervisor', 2);
    try {
      const supervisor = superviseInBackground(adapter.executable, [], { STATECRAFT_CONTAINMENT: 'process-group' });
      expect(await until(() => existsSync(started), 20_000, 25), 'the adapter started').toBe(true);
      expect(await until(() => processesWithArgument(adapter.executable).length >= 4, 5_000, 25), 'statecraft, the adapter and its two descendants run').toBe(
        true,
      );
      expect(await killSupervisorThenAllGone(supervisor, adapter.executable), 'the adapter and its descendants ended with their supervisor').toBe(true);
    } finally {
      await adapter.remove();
    }
  });

  it('under the PID namespace (`--boundary none`), takes the adapter and its namespace with it', async () => {
    const { adapter, started } = await adapterThatRunsOn('outlives-its-supervisor');
    try {
      const supervisor = superviseInBackground(adapter.executable, []);
      expect(await until(() => existsSync(started), 20_000, 25), 'the adapter started').toBe(true);
      expect(
        processesWithArgument(adapter.executable).length,
        'statecraft, unshare and the adapter: the PID namespace ran, not the fallback',
      ).toBeGreaterThanOrEqual(3);
      expect(await killSupervisorThenAllGone(supervisor, adapter.executable), 'the adapter ended with its supervisor').toBe(true);
    } finally {
      await adapter.remove();
    }
  });
});
