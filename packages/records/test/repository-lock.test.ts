import { readdir, readFile, rename, truncate, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { dir, type DirectoryResult } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireRepositoryLock, readLockInstance } from '@statecraft/records';

let scratch: DirectoryResult;
let directory: string;
let lock: string;
beforeEach(async () => {
  scratch = await dir({ unsafeCleanup: true, prefix: 'statecraft-lock' });
  directory = scratch.path;
  lock = join(directory, 'lock');
});
afterEach(async () => {
  await scratch.cleanup();
});

/** A pid that certainly belonged to a process and certainly no longer does. */
async function deadPid(): Promise<number> {
  const child = await execa(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout);
}

describe('one live attempt per target (R8.5)', () => {
  it('a second acquisition is refused naming the live holder', async () => {
    const first = await acquireRepositoryLock(lock, { runId: 'run-a', attempt: 1 });
    expect(first.kind).toBe('acquired');
    const second = await acquireRepositoryLock(lock, { runId: 'run-b', attempt: 1 });
    expect(second.kind).toBe('refused');
    if (second.kind === 'refused') {
      expect(second.message).toContain('run run-a attempt 1');
      expect(second.message).toContain(`pid ${process.pid}`);
    }
    if (first.kind === 'acquired') await first.release();
    const third = await acquireRepositoryLock(lock, { runId: 'run-c', attempt: 1 });
    expect(third).toMatchObject({ kind: 'acquired', reclaimed: 'none' });
  });

  it("a lock whose supervisor's pid is dead on this host is stale: taken over and reported", async () => {
    const stale = { pid: await deadPid(), host: hostname(), runId: 'run-dead', attempt: 2, since: '2026-11-30T04:00:00.000Z' };
    await writeFile(lock, JSON.stringify(stale));
    const taken = await acquireRepositoryLock(lock, { runId: 'run-new', attempt: 1 });
    expect(taken).toMatchObject({ kind: 'acquired', reclaimed: stale });
    expect(JSON.parse(await readFile(lock, 'utf8'))).toMatchObject({ runId: 'run-new', pid: process.pid });
  });

  // A supervisor killed with -9 whose parent has not reaped it answered signal 0, so its lock
  // read as live and the target stayed refused.
  it('a lock whose supervisor is a zombie (exited, not yet reaped) is stale: taken over', async () => {
    // `sleep 30` inherits the background child and never waits for it: once it exits it stays a zombie.
    const parent = execa('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 30']);
    try {
      const zombie = await new Promise<number>((resolve) => parent.stdout?.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))));
      for (let tries = 0; tries < 100; tries += 1) {
        const state = await readFile(`/proc/${zombie}/stat`, 'latin1').catch(() => '');
        if (state.slice(state.lastIndexOf(')') + 2, state.lastIndexOf(')') + 3) === 'Z') break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const stale = { pid: zombie, host: hostname(), runId: 'run-zombie', attempt: 1, since: '2026-11-30T04:00:00.000Z' };
      await writeFile(lock, JSON.stringify(stale));
      expect(await acquireRepositoryLock(lock, { runId: 'run-new', attempt: 1 })).toMatchObject({ kind: 'acquired', reclaimed: stale });
    } finally {
      parent.kill('SIGKILL');
      await parent.catch(() => undefined);
    }
  });

  it('a lock from another host is treated as live: its pid cannot be checked from here', async () => {
    await writeFile(lock, JSON.stringify({ pid: await deadPid(), host: `not-${hostname()}`, runId: 'run-far', attempt: 1, since: '2026-11-30T04:00:00.000Z' }));
    expect((await acquireRepositoryLock(lock, { runId: 'run-new', attempt: 1 })).kind).toBe('refused');
  });

  it('release removes only a lock that is still its own', async () => {
    const first = await acquireRepositoryLock(lock, { runId: 'run-a', attempt: 1 });
    const other = { pid: process.pid, host: hostname(), runId: 'run-other', attempt: 1, since: '2026-11-30T04:00:00.000Z' };
    await writeFile(lock, JSON.stringify(other));
    if (first.kind === 'acquired') await first.release();
    expect(JSON.parse(await readFile(lock, 'utf8'))).toEqual(other);
  });

  it('a claimant that died mid-takeover does not jam the target: the next claim generation takes the stale lock over, and the claims are swept', async () => {
    const stale = { pid: await deadPid(), host: hostname(), runId: 'run-dead', attempt: 1, since: '2026-11-30T04:00:00.000Z' };
    await writeFile(lock, JSON.stringify(stale));
    const found = await readLockInstance(lock);
    if (found.kind !== 'found') throw new Error('the stale lock was not written');
    const deadClaimant = { ...stale, pid: await deadPid(), runId: 'run-died-claiming' };
    await writeFile(`${lock}.takeover-${found.identity}.0`, JSON.stringify(deadClaimant));
    const taken = await acquireRepositoryLock(lock, { runId: 'run-new', attempt: 1 });
    expect(taken).toMatchObject({ kind: 'acquired', reclaimed: stale });
    expect((await readdir(directory)).sort()).toEqual(['lock']);
  });

  it('while a live supervisor holds the claim on a stale lock, another is refused naming it, and the stale lock stays for the claimant', async () => {
    const stale = { pid: await deadPid(), host: hostname(), runId: 'run-dead', attempt: 1, since: '2026-11-30T04:00:00.000Z' };
    await writeFile(lock, JSON.stringify(stale));
    const found = await readLockInstance(lock);
    if (found.kind !== 'found') throw new Error('the stale lock was not written');
    const liveClaimant = { ...stale, pid: process.pid, runId: 'run-claiming' };
    await writeFile(`${lock}.takeover-${found.identity}.0`, JSON.stringify(liveClaimant));
    const second = await acquireRepositoryLock(lock, { runId: 'run-new', attempt: 1 });
    expect(second).toMatchObject({ kind: 'refused', holder: liveClaimant });
    if (second.kind === 'refused') expect(second.message).toContain('is taking over the stale lock of this target: run run-claiming attempt 1');
    expect(JSON.parse(await readFile(lock, 'utf8'))).toEqual(stale);
  });

  it('a supervisor that takes the target in the middle of a stale-lock takeover wins over the claimant; the waiting racer is refused naming the winner, not the claimant', async () => {
    const stale = { pid: await deadPid(), host: hostname(), runId: 'run-dead', attempt: 1, since: '2026-11-30T04:00:00.000Z' };
    await writeFile(lock, JSON.stringify(stale));
    const found = await readLockInstance(lock);
    if (found.kind !== 'found') throw new Error('the stale lock was not written');
    await writeFile(`${lock}.takeover-${found.identity}.0`, JSON.stringify({ ...stale, pid: process.pid, runId: 'run-claiming' }));
    const waiting = acquireRepositoryLock(lock, { runId: 'run-waiting', attempt: 1 });
    // The claimant removes the stale lock; before it links its own, a newcomer takes the free name.
    // Done here as one rename over the stale lock, so the name is never free for the waiting racer
    // itself to take (which, on a loaded machine, it otherwise sometimes does first).
    await new Promise((resolve) => setTimeout(resolve, 200));
    const newcomer = { ...stale, pid: process.pid, runId: 'run-newcomer', since: '2026-11-30T04:00:01.000Z' };
    await writeFile(`${lock}.newcomer`, JSON.stringify(newcomer));
    await rename(`${lock}.newcomer`, lock);
    const refused = await waiting;
    expect(refused).toMatchObject({ kind: 'refused', holder: newcomer });
    if (refused.kind === 'refused') expect(refused.message).toContain('holds this target: run run-newcomer attempt 1');
  });

  it('a lock file larger than any lock (a sparse 3 GiB one) is read no further than its bound: unreadable, and taken over as such', async () => {
    await writeFile(lock, '{"pid":1}');
    await truncate(lock, 3 * 1024 ** 3);
    // Read whole, this threw "File size is greater than 2 GiB" (ERR_FS_FILE_TOO_LARGE).
    const found = await readLockInstance(lock);
    expect(found).toMatchObject({ kind: 'found', holder: 'unreadable' });
    const taken = await acquireRepositoryLock(lock, { runId: 'run-new', attempt: 1 });
    expect(taken).toMatchObject({ kind: 'acquired', reclaimed: 'unreadable' });
    if (taken.kind === 'acquired') await taken.release();
  });
});
