import { createHash } from 'node:crypto';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// A hostile pass on `statecraft verify` (issue 32): a bundle may be a directory, and a directory's
// file costs its maker nothing to make long: a sparse file of a terabyte takes no disk. Verify read
// every file of the directory whole, listed or not, so such a file (never to be believed whatever
// it holds) kept verify reading for as long as a terabyte takes. It must answer promptly.

const scratch = scratchDirectories();
const TERABYTE = 1024 ** 4;

interface Verified {
  findings: { check: string; file: string; field?: string; message: string }[];
}

async function directoryBundle(listed: { path: string; role: string; bytes: number }[]): Promise<string> {
  const root = join(await scratch.make('statecraft-sparse'), 'bundle');
  mkdirSync(root, { recursive: true });
  const manifest = {
    kind: 'statecraft-bundle',
    bundleVersion: 1,
    exportedAt: new Date().toISOString(),
    statecraft: { version: '0.0.0' },
    target: { path: '/nowhere', key: 'nowhere' },
    runId: 'run-sparse',
    chainTip: { seq: 0, digest: '0'.repeat(64) },
    files: listed.map((file) => ({ ...file, sha256: createHash('sha256').update('').digest('hex') })),
  };
  writeFileSync(join(root, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
  return root;
}

async function verify(bundle: string) {
  return runStatecraft(['verify', bundle, '--json'], { home: join(await scratch.make('statecraft-no-home'), 'none'), timeoutMs: 30_000 });
}

describe('verify of a directory bundle reads what its manifest lists, at the size it lists', () => {
  it('a terabyte file the manifest does not list is a finding, not read', async () => {
    const bundle = await directoryBundle([]);
    writeFileSync(join(bundle, 'huge.bin'), '');
    truncateSync(join(bundle, 'huge.bin'), TERABYTE);
    const run = await verify(bundle);
    expect(run.exitCode, `${run.stderr}${run.stdout.slice(0, 1000)}`).toBe(1);
    expect(parseJson<Verified>(run).findings).toContainEqual(
      expect.objectContaining({ file: 'huge.bin', message: 'is in the bundle and not in its manifest' }),
    );
  }, 60_000);

  it('a listed file a terabyte long where the manifest lists ten bytes is a finding, not read', async () => {
    const bundle = await directoryBundle([{ path: 'attempts/stream.ndjson', role: 'stream', bytes: 10 }]);
    mkdirSync(join(bundle, 'attempts'));
    writeFileSync(join(bundle, 'attempts', 'stream.ndjson'), '');
    truncateSync(join(bundle, 'attempts', 'stream.ndjson'), TERABYTE);
    const run = await verify(bundle);
    expect(run.exitCode, `${run.stderr}${run.stdout.slice(0, 1000)}`).toBe(1);
    expect(parseJson<Verified>(run).findings.map((finding) => finding.file)).toContain('attempts/stream.ndjson');
  }, 60_000);
});
