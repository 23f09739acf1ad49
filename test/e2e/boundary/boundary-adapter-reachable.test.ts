import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { adapterReachableResiduals, readPtraceScope } from '@statecraft/environment';
import { describe, expect, it } from 'vitest';
import { readKeptEvents } from '../../fixtures/attempt-stream.js';
import { createForgingAdapter } from '../../fixtures/forging-adapter.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R12: the processes the agent starts share the adapter's uid and PID namespace inside the
// sandbox. Unless Yama's ptrace_scope is 1 or more they can attach to it (ptrace, pidfd_getfd,
// /proc/<pid>/mem) and forge the events it writes. The boundary does not deny this; every attempt
// under it says whether it is open here, read from this machine's Yama once per launch — and a
// hostile tool shows the record matches what the kernel does.

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();

interface Account {
  outcome: string;
  posture: { boundary: { mechanism: string; residuals: { id: string; statement: string }[] } };
  artifacts: { stream: { path: string } | 'not-recorded'; stderr: { path: string } | 'not-recorded' };
}

describe("what the agent's processes can still do to the adapter (R12)", () => {
  it('a tool holding no descriptor of the adapter forges its result through pidfd_getfd exactly when the attempt names the residual', async () => {
    const target = await targets.fresh();
    const adapter = await createForgingAdapter();
    scratch.keep(adapter);
    const run = await runStatecraft(['run', target.path, '--adapter', adapter.executable, '--prompt', 'anything', '--json'], { home: targets.home.path });
    const account = parseJson<Account>(run);
    expect(account.posture.boundary.mechanism).toBe('bwrap');
    const scope = readPtraceScope();
    const named = account.posture.boundary.residuals.find((residual) => residual.id === 'adapter-attachable');
    if (account.artifacts.stderr === 'not-recorded') throw new Error('the attempt kept no stderr');
    const said = (await readFile(account.artifacts.stderr.path, 'utf8')).split('\n').find((line) => line.startsWith('tool '));
    console.info(`kernel.yama.ptrace_scope here: ${String(scope)}; the tool reported: ${said ?? 'nothing'}`);
    const tool = JSON.parse((said ?? 'tool {}').slice('tool '.length)) as { reopen?: string; getfd?: string; error?: string };
    // Reopening its stdout by /proc is no way in: the supervisor hands the adapter a socket.
    expect(tool.reopen).toBe('ENXIO');
    const events = await readKeptEvents(account);
    if (typeof scope === 'number' && scope >= 1) {
      expect(named).toBeUndefined();
      expect(tool.getfd).toBe('EPERM');
      expect(events.map((event) => event.type)).toEqual(['init']);
      expect(account.outcome).not.toBe('completed');
    } else {
      expect(named?.statement).toContain('pidfd_getfd');
      expect(named?.statement).toContain(scope === 'absent' ? 'there is no Yama here' : 'ptrace_scope');
      // The adapter wrote only its init; the result is the tool's, and the attempt reads completed.
      expect(tool.getfd).toBe('forged');
      expect(events.map((event) => event.type)).toEqual(['init', 'result']);
      expect(events[1]).toMatchObject({ claim: { reason: 'forged by a tool' } });
      expect(account.outcome).toBe('completed');
    }
  });

  it('is not among what --boundary none names: there the records themselves are in reach', async () => {
    const target = await targets.fresh();
    const none = await runStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], {
      home: targets.home.path,
      env: { STATECRAFT_BOUNDARY: 'none' },
    });
    const ids = parseJson<Account>(none).posture.boundary.residuals.map((residual) => residual.id);
    expect(ids).toContain('records-reachable');
    expect(ids).not.toContain('adapter-attachable');
  });

  it('reads Yama as a number, absent or unreadable; 1 or more takes the residual away', async () => {
    const directory = await scratch.make('statecraft-yama');
    const file = join(directory, 'ptrace_scope');
    await writeFile(file, '1\n');
    expect(readPtraceScope(file)).toBe(1);
    expect(readPtraceScope(join(directory, 'absent'))).toBe('absent');
    await writeFile(file, 'x\n');
    expect(readPtraceScope(file)).toBe('unreadable');
    expect(adapterReachableResiduals(1)).toEqual([]);
    expect(adapterReachableResiduals(3)).toEqual([]);
    for (const scope of [0, 'absent', 'unreadable'] as const) {
      expect(adapterReachableResiduals(scope).map((residual) => residual.id)).toEqual(['adapter-attachable']);
    }
  });
});
