import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMeasuringPeak } from '../../fixtures/peak-memory.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

// A hostile pass on `statecraft verify` (issue 32): a crafted bundle handed to a reviewer or to
// `collect` must not exhaust the verifier's memory, nor make an answer that grows with it. The
// promise (decision 0282): the bundle is read once, in bounded memory. One held file at its bound
// (32 MiB) costs the verifier about 140 MB at its peak; many must not add up. Each bundle here is
// built from nothing (no export, no key): its manifest lists what the attacker wants read.

const scratch = scratchDirectories();
const MEBIBYTE = 1024 * 1024;
const BOUND_MB = 200;

interface Listed {
  path: string;
  role: string;
  bytes: Buffer;
}

/** A tar bundle whose manifest (first, in its one form) lists every file with its true digest. */
async function craftedBundle(files: readonly Listed[]): Promise<string> {
  const root = await scratch.make('statecraft-hostile-bundle');
  const tree = join(root, 'tree');
  execFileSync('mkdir', ['-p', join(tree, 'chain')]);
  const manifest = {
    kind: 'statecraft-bundle',
    bundleVersion: 1,
    exportedAt: new Date().toISOString(),
    statecraft: { version: '0.0.0' },
    target: { path: '/nowhere', key: 'nowhere' },
    runId: 'run-hostile',
    chainTip: { seq: 0, digest: '0'.repeat(64) },
    files: files.map((file) => ({
      path: file.path,
      role: file.role,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
      bytes: file.bytes.length,
    })),
  };
  writeFileSync(join(tree, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
  for (const file of files) writeFileSync(join(tree, file.path), file.bytes);
  const tar = join(root, 'bundle.tar');
  execFileSync('tar', ['-cf', tar, '-C', tree, 'manifest.json', ...files.map((file) => file.path)]);
  return tar;
}

async function verifyMeasured(bundle: string) {
  const home = await scratch.make('statecraft-no-home');
  return runMeasuringPeak(['verify', bundle, '--json'], { home: join(home, 'none'), scratch, timeoutMs: 180_000 });
}

describe('verify of a crafted bundle keeps its memory bounded', () => {
  it('many files listed under a role the reader holds whole do not add up in memory', async () => {
    // Each is under the reader's per-file bound; together they are not.
    const chunk = Buffer.alloc(30 * MEBIBYTE, 'a');
    const files = Array.from({ length: 10 }, (_, index) => ({ path: `request-${String(index)}.json`, role: 'request', bytes: chunk }));
    const bundle = await craftedBundle(files);
    const { run, peakMB } = await verifyMeasured(bundle);
    expect([1, 2], run.stderr).toContain(run.exitCode);
    expect(peakMB, `peak RSS ${peakMB.toFixed(0)} MB`).toBeLessThan(BOUND_MB);
  }, 240_000);

  it('a bundle of many entries that are not regular files is not a finding held and told for each', async () => {
    const root = await scratch.make('statecraft-hostile-links');
    const tree = join(root, 'tree');
    execFileSync('mkdir', ['-p', tree]);
    const manifest = {
      kind: 'statecraft-bundle',
      bundleVersion: 1,
      exportedAt: new Date().toISOString(),
      statecraft: { version: '0.0.0' },
      target: { path: '/nowhere', key: 'nowhere' },
      runId: 'run-hostile',
      chainTip: { seq: 0, digest: '0'.repeat(64) },
      files: [],
    };
    writeFileSync(join(tree, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
    const names = Array.from({ length: 20_000 }, (_, index) => `link-${String(index)}`);
    for (const name of names) symlinkSync('manifest.json', join(tree, name));
    const tar = join(root, 'bundle.tar');
    writeFileSync(join(root, 'names'), `manifest.json\n${names.join('\n')}\n`);
    execFileSync('tar', ['-cf', tar, '-C', tree, '--no-recursion', '-T', join(root, 'names')]);
    const { run } = await verifyMeasured(tar);
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.stdout.length, 'the answer is bounded').toBeLessThan(MEBIBYTE);
    expect(run.stdout).toContain('more entries of the bundle are not regular files');
  }, 240_000);

  it('a manifest listing a hundred and seventy thousand files does not cost ten times its size', async () => {
    // 20 MB of manifest, each entry a finding twice over: parsed whole, JSON costs ten times its bytes.
    const root = await scratch.make('statecraft-hostile-manifest');
    const files = Array.from({ length: 170_000 }, (_, index) => ({ path: `f/${String(index)}`, role: 'request', sha256: '0'.repeat(64), bytes: 1 }));
    const manifest = {
      kind: 'statecraft-bundle',
      bundleVersion: 1,
      exportedAt: new Date().toISOString(),
      statecraft: { version: '0.0.0' },
      target: { path: '/nowhere', key: 'nowhere' },
      runId: 'run-hostile',
      chainTip: { seq: 0, digest: '0'.repeat(64) },
      files,
    };
    writeFileSync(join(root, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
    const { run, peakMB } = await verifyMeasured(root);
    expect([1, 2], run.stderr).toContain(run.exitCode);
    expect(peakMB, `peak RSS ${peakMB.toFixed(0)} MB`).toBeLessThan(150);
  }, 240_000);

  it('a records file of many short lines does not become a finding, held in memory, for each', async () => {
    // Two bytes a line: each line that is not a record is one finding object, with its message.
    const records = Buffer.from('x\n'.repeat(2 * MEBIBYTE));
    const bundle = await craftedBundle([{ path: 'chain/records.jsonl', role: 'chain-records', bytes: records }]);
    const { run, peakMB } = await verifyMeasured(bundle);
    expect([1, 2], run.stderr).toContain(run.exitCode);
    expect(peakMB, `peak RSS ${peakMB.toFixed(0)} MB`).toBeLessThan(BOUND_MB);
    expect(run.stdout.length, 'the answer is bounded too').toBeLessThan(MEBIBYTE);
  }, 240_000);
});
