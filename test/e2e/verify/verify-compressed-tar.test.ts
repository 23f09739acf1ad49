import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { runStatecraft } from '../../fixtures/statecraft-cli.js';

// A hostile pass on `statecraft verify` (issue 32): export writes a plain tar, read 1:1 with its
// bytes. A bundle handed to a reviewer or to collect that is gzip-compressed instead was
// decompressed by the tar reader, a thousand bytes read for each byte given: a 20 MB file made
// verify read 20 GiB. Any compressed bundle is not one export writes: it is refused at once.

const scratch = scratchDirectories();
const BLOCK = 512;
const CHUNK = 64 * 1024 * 1024;
const CHUNKS = 320;

function header(name: string, size: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100);
  block.write('0000644\0', 100);
  block.write('0000000\0', 108);
  block.write('0000000\0', 116);
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  block.write('00000000000\0', 136);
  block.write('0', 156);
  block.write('ustar\0', 257);
  block.write('00', 263);
  block.write('        ', 148);
  const sum = block.reduce((total, byte) => total + byte, 0);
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return block;
}

const padding = (size: number): Buffer => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/**
 * A gzip stream of several members (as gzip reads them, one after the other) whose whole is a tar:
 * a manifest, then one member of 20 GiB of zeros, each 64 MiB of it compressed once and repeated;
 * then zeros to a whole number of blocks, as the verifier's check for a cut tar wants.
 */
async function compressedBundle(): Promise<string> {
  const manifest = Buffer.from(
    `${JSON.stringify({
      kind: 'statecraft-bundle',
      bundleVersion: 1,
      exportedAt: new Date().toISOString(),
      statecraft: { version: '0.0.0' },
      target: { path: '/nowhere', key: 'nowhere' },
      runId: 'run-compressed',
      chainTip: { seq: 0, digest: '0'.repeat(64) },
      files: [{ path: 'stream.ndjson', role: 'stream', sha256: createHash('sha256').update('').digest('hex'), bytes: (CHUNK + 4096) * CHUNKS }],
    })}\n`,
  );
  const path = join(await scratch.make('statecraft-compressed'), 'bundle.tar');
  const fd = openSync(path, 'w');
  let size = 0;
  const write = (bytes: Buffer): void => {
    size += writeSync(fd, bytes);
  };
  write(
    gzipSync(Buffer.concat([header('manifest.json', manifest.length), manifest, padding(manifest.length), header('stream.ndjson', (CHUNK + 4096) * CHUNKS)])),
  );
  const zeros = gzipSync(Buffer.alloc(CHUNK), { level: 9 });
  // A little that does not compress after each: the whole stays under the reader's 1000:1 ratio bound.
  const noise = gzipSync(randomBytes(4096), { level: 0 });
  for (let index = 0; index < CHUNKS; index += 1) {
    write(zeros);
    write(noise);
  }
  write(gzipSync(Buffer.alloc(2 * BLOCK)));
  write(Buffer.alloc(padding(size).length + 2 * BLOCK));
  closeSync(fd);
  return path;
}

describe('verify reads a bundle as the plain tar export writes', () => {
  it('a gzip-compressed bundle is refused at once, not decompressed', async () => {
    const bundle = await compressedBundle();
    const started = performance.now();
    const run = await runStatecraft(['verify', bundle, '--json'], { home: join(await scratch.make('statecraft-no-home'), 'none'), timeoutMs: 300_000 });
    const seconds = (performance.now() - started) / 1000;
    expect(run.exitCode, `${run.stderr}${run.stdout.slice(0, 2000)}`).toBe(2);
    expect(run.stderr).toContain('compressed');
    // Refused from its first bytes: not the minutes 20 GiB take to inflate and digest.
    expect(seconds).toBeLessThan(15);
  }, 400_000);
});
