import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { superviseAdapter } from '@statecraft/run';
import { findAttemptProcesses, fixtureAdapterPath } from '@statecraft/adapter';
import { describe, expect, it } from 'vitest';
import { establishedLaunch } from '../../fixtures/established-boundary.js';
import { processesWithArgument } from '../../fixtures/processes-with-argument.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

// R8.4 with the boundary (R12): `run` sets the adapter's sandbox up while the intent is appended,
// and the adapter may start only once the intent is durable. The sandbox waits at its closer's
// gate (GATED_CLOSER_SCRIPT); these show, with the real bwrap and the fixture adapter's spawn log,
// that nothing of the adapter runs before the gate opens, and that a gate that never opens (an
// intent that could not be appended) leaves nothing: no adapter, no evidence file, no process.
const scratch = scratchDirectories();
const PROMPT = 'scenario: complete';

async function gatedLaunch(signal?: AbortSignal) {
  // In TMPDIR, which the sandbox may write: the fixture adapter logs its start there.
  const { boundary, workspace, temporaryDirectory, records, requestFile, environment } = await establishedLaunch(
    scratch,
    'statecraft-adapter-gate-',
    PROMPT,
    (tmp) => ({
      STATECRAFT_FIXTURE_SPAWN_LOG: join(tmp, 'spawn.log'),
    }),
  );
  const spawnLog = join(temporaryDirectory, 'spawn.log');
  const attemptTag = `statecraft-gate-test-${Date.now()}`;
  let settle: (go: boolean) => void = () => undefined;
  const gate = new Promise<boolean>((resolve) => {
    settle = resolve;
  });
  const supervising = superviseAdapter({
    executable: fixtureAdapterPath(),
    args: ['run', '--request', requestFile],
    workspace,
    environment,
    prompt: PROMPT,
    deadlineMs: 30_000,
    attemptTag,
    streamFile: join(records, 'stream.ndjson'),
    stderrFile: join(records, 'stderr.log'),
    boundary,
    gate,
    ...(signal === undefined ? {} : { signal }),
  });
  return { supervising, settle, spawnLog, records, attemptTag };
}

describe("the adapter's gate under the boundary (R8.4, R12)", () => {
  it('starts nothing of the adapter before the gate opens; once open, the adapter runs with its prompt and its clock starts then', async () => {
    const launch = await gatedLaunch();
    // Far longer than the sandbox takes to start and the fixture to log its spawn when not held back.
    await sleep(750);
    expect(existsSync(launch.spawnLog)).toBe(false);
    // The sandbox is there, waiting, named by the tag it is to export; none of its processes
    // carries the tag yet, so no sweep of the attempt's processes takes a launch not started.
    expect(processesWithArgument(launch.attemptTag).length).toBeGreaterThan(0);
    expect(findAttemptProcesses(launch.attemptTag)).toEqual([]);
    const opened = Date.now();
    launch.settle(true);
    const answer = await launch.supervising;
    expect(answer.kind).toBe('supervised');
    if (answer.kind !== 'supervised') return;
    // It read its prompt (scenario `complete`) and ended with its result event.
    expect(answer.attempt.terminal).toMatchObject({ type: 'result' });
    expect(answer.attempt.stoppedBy).toBe('none');
    expect(await readFile(launch.spawnLog, 'utf8')).toMatch(/^\d+\n$/);
    expect(Date.parse(answer.attempt.startedAt)).toBeGreaterThanOrEqual(opened);
    expect(findAttemptProcesses(launch.attemptTag)).toEqual([]);
    expect(processesWithArgument(launch.attemptTag)).toEqual([]);
  });

  it('withdrawn when the gate settles false: the adapter never ran, no evidence file and no process of it is left', async () => {
    const launch = await gatedLaunch();
    await sleep(300);
    launch.settle(false);
    expect(await launch.supervising).toEqual({ kind: 'withdrawn' });
    expect(existsSync(launch.spawnLog)).toBe(false);
    expect(await readdir(launch.records)).toEqual([]);
    // The waiting sandbox is gone too: nothing names the tag, nothing carries it.
    expect(processesWithArgument(launch.attemptTag)).toEqual([]);
    expect(findAttemptProcesses(launch.attemptTag)).toEqual([]);
  });

  it('an interrupt that came before the gate opened starts nothing: the attempt reads as cancelled, with empty evidence', async () => {
    const interrupt = new AbortController();
    const launch = await gatedLaunch(interrupt.signal);
    await sleep(300);
    interrupt.abort();
    launch.settle(true);
    const answer = await launch.supervising;
    expect(answer.kind).toBe('supervised');
    if (answer.kind !== 'supervised') return;
    expect(answer.attempt).toMatchObject({ stoppedBy: 'operator-cancel', exit: 'not-observed', stdout: { bytes: 0 } });
    expect(existsSync(launch.spawnLog)).toBe(false);
    expect(findAttemptProcesses(launch.attemptTag)).toEqual([]);
  });
});
