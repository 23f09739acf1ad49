import { watch } from 'node:fs';
import { mkdir, readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { establishBoundary } from '@statecraft/environment';
import { buildBoundaryProfile } from '@statecraft/environment';
import { describe, expect, it } from 'vitest';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

// R12: a launch's sandbox is set up while git adds the worktree into the directory made empty for
// it (packages/run/src/workspace/prepare-workspace.ts); `git worktree add` refuses a directory that
// is not empty, so the probe must write nothing there before it is told git has added it. Every
// entry made in the workspace is watched (inotify), so a write made and removed again is still seen.
// These run the real bwrap (CI installs it; the paths without it are test/e2e/boundary/boundary-refusals.test.ts).
const scratch = scratchDirectories();

async function sandboxPlaces() {
  const root = await realpath(await scratch.make('statecraft-probe-waits-'));
  const [home, workspace, temporaryDirectory] = ['home', 'workspace', 'tmp'].map((name) => join(root, name));
  for (const directory of [home, workspace, temporaryDirectory]) await mkdir(directory as string);
  const environment = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
  const profile = buildBoundaryProfile({
    productHome: home as string,
    workspace: workspace as string,
    temporaryDirectory: temporaryDirectory as string,
    managedPaths: [],
    environment,
    handOver: [],
    source: {},
  });
  return { workspace: workspace as string, environment, profile };
}

/** Every name made or removed in `directory` from now on. */
function watchEntries(directory: string): { seen: string[]; close: () => void } {
  const seen: string[] = [];
  const watcher = watch(directory, (event, name) => seen.push(`${event} ${String(name)}`));
  return { seen, close: () => watcher.close() };
}

describe("the boundary's probe waits for git before it writes in the workspace (R12)", () => {
  it('writes nothing there until told the worktree is added, then runs every check, which holds', async () => {
    const { workspace, environment, profile } = await sandboxPlaces();
    const entries = watchEntries(workspace);
    let added: (ready: boolean) => void = () => undefined;
    const workspaceReady = new Promise<boolean>((resolve) => {
      added = resolve;
    });
    const establishing = establishBoundary({ profile, environment, workspace, workspaceReady });
    // Far longer than the sandbox takes to start and a probe not held back takes to write.
    await sleep(750);
    expect(entries.seen).toEqual([]);
    added(true);
    const established = await establishing;
    entries.close();
    expect(established.kind).toBe('established');
    if (established.kind !== 'established') return;
    expect(established.boundary.record.probe.every((check) => check.held)).toBe(true);
    // The write-workspace check wrote (after the word) and its file was removed.
    expect(entries.seen.some((entry) => entry.includes('.statecraft-boundary-probe-'))).toBe(true);
    expect(await readdir(workspace)).toEqual([]);
  });

  it('told git failed, runs no check and writes nothing: refused, every check unreported', async () => {
    const { workspace, environment, profile } = await sandboxPlaces();
    const entries = watchEntries(workspace);
    const refused = await establishBoundary({ profile, environment, workspace, workspaceReady: sleep(200).then(() => false) });
    entries.close();
    expect(refused.kind).toBe('refused');
    if (refused.kind !== 'refused' || refused.probe === 'not-run') throw new Error('the probe should have been started');
    expect(refused.probe.every((check) => !check.held && check.detail === 'the probe reported nothing for this check')).toBe(true);
    expect(entries.seen).toEqual([]);
  });
});
