import { readFile } from 'node:fs/promises';
import { readPtraceScope } from '@statecraft/environment';
import { describe, expect, it } from 'vitest';
import { readKeptEvents } from '../../fixtures/attempt-stream.js';
import { createForgingAdapter } from '../../fixtures/forging-adapter.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R12: the processes the agent starts share the adapter's uid and PID namespace inside the
// sandbox. Were they let attach to it, they could take its stdout and forge the events it writes,
// a result included. The seccomp filter denies ptrace and pidfd_getfd whatever the host; a write
// to /proc/<pid>/mem is open unless Yama's ptrace_scope is 1 or more, and every attempt says so.
// A hostile tool tries each way, and the record matches what the kernel does.

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();

interface Account {
  outcome: string;
  posture: { boundary: { mechanism: string; residuals: { id: string; statement: string }[] } };
  artifacts: { stream: { path: string } | 'not-recorded'; stderr: { path: string } | 'not-recorded' };
}

describe("what the agent's processes can still do to the adapter (R12)", () => {
  it('a tool holding no descriptor of the adapter can neither reopen, attach to nor take its stdout, whatever Yama says; its memory is named open exactly when the kernel lets the tool open it', async () => {
    const target = await targets.fresh();
    const adapter = await createForgingAdapter();
    scratch.keep(adapter);
    const run = await runStatecraft(['run', target.path, '--adapter', adapter.executable, '--prompt', 'anything', '--json'], { home: targets.home.path });
    const account = parseJson<Account>(run);
    expect(account.posture.boundary.mechanism).toBe('bwrap');
    if (account.artifacts.stderr === 'not-recorded') throw new Error('the attempt kept no stderr');
    const said = (await readFile(account.artifacts.stderr.path, 'utf8')).split('\n').find((line) => line.startsWith('tool '));
    const tool = JSON.parse((said ?? 'tool {}').slice('tool '.length)) as Record<string, string>;
    // Reopening its stdout by /proc is no way in: the supervisor hands the adapter a socket.
    const scope = readPtraceScope();
    const memoryOpen = !(typeof scope === 'number' && scope >= 1);
    expect(tool).toEqual({ reopen: 'ENXIO', mem: memoryOpen ? 'opened' : 'EACCES', ptrace: 'EPERM', getfd: 'EPERM' });
    const named = account.posture.boundary.residuals.find((residual) => residual.id === 'adapter-attachable');
    if (memoryOpen) expect(named?.statement).toContain('/proc/<pid>/mem');
    else expect(named).toBeUndefined();
    expect((await readKeptEvents(account)).map((event) => event.type)).toEqual(['init']);
    expect(account.outcome).not.toBe('completed');
  });
});
