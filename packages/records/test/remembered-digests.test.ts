import { appendFile, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dir, type DirectoryResult } from 'tmp-promise';
import { afterEach, describe, expect, it } from 'vitest';
import { matchKnownDigest, sha256Hex } from '@statecraft/adapter';
import { digestFileCached, knownDigestOf } from '@statecraft/records';

let scratchDirectory: DirectoryResult;
let scratch: string;
afterEach(async () => {
  await scratchDirectory.cleanup();
});

async function setUp(): Promise<{ file: string; cache: string }> {
  scratchDirectory = await dir({ unsafeCleanup: true, prefix: 'statecraft-digest-cache' });
  scratch = scratchDirectory.path;
  const file = join(scratch, 'provider');
  await writeFile(file, 'the provider bytes');
  return { file, cache: join(scratch, 'cache') };
}

/** Rewrites the one cache entry's digest, keeping the identity it names. */
async function poisonOnlyEntry(cache: string, sha256: string): Promise<void> {
  const [entry] = await readdir(cache);
  if (entry === undefined) throw new Error('no cache entry was written');
  const known = JSON.parse(await readFile(join(cache, entry), 'utf8')) as Record<string, unknown>;
  await writeFile(join(cache, entry), JSON.stringify({ ...known, sha256 }));
}

describe('file digests remembered by file identity (issue 10 item 7)', () => {
  it('an unchanged file is not read again: the remembered digest is the answer', async () => {
    const { file, cache } = await setUp();
    expect(await digestFileCached(file, cache)).toBe(`sha256:${sha256Hex('the provider bytes')}`);
    // Only a cache that is trusted returns this: the file's bytes hash to something else.
    await poisonOnlyEntry(cache, 'b'.repeat(64));
    expect(await digestFileCached(file, cache)).toBe(`sha256:${'b'.repeat(64)}`);
  });

  it('a file written since is hashed again, because its identity moved', async () => {
    const { file, cache } = await setUp();
    await digestFileCached(file, cache);
    await poisonOnlyEntry(cache, 'b'.repeat(64));
    await appendFile(file, ' and more');
    expect(await digestFileCached(file, cache)).toBe(`sha256:${sha256Hex('the provider bytes and more')}`);
  });

  it('a symlink and its target share one entry, keyed by the real path', async () => {
    const { file, cache } = await setUp();
    const link = join(scratch, 'provider-link');
    await symlink(file, link);
    const viaLink = await knownDigestOf(link, cache);
    expect(viaLink.path).toBe(file);
    expect(await readdir(cache)).toHaveLength(1);
  });

  it('a torn or foreign cache entry is recomputed, never believed', async () => {
    const { file, cache } = await setUp();
    await digestFileCached(file, cache);
    const [entry] = await readdir(cache);
    await writeFile(join(cache, entry ?? ''), '{"path": "/elsewhere", "sha');
    expect(await digestFileCached(file, cache)).toBe(`sha256:${sha256Hex('the provider bytes')}`);
  });

  it('an unwritable cache costs only the hashing', async () => {
    const { file } = await setUp();
    const notADirectory = join(scratch, 'provider');
    expect(await digestFileCached(file, join(notADirectory, 'cache'))).toBe(`sha256:${sha256Hex('the provider bytes')}`);
  });

  it('a handed-over digest matches only the same real path with the same identity', async () => {
    const { file, cache } = await setUp();
    const known = await knownDigestOf(file, cache);
    expect(matchKnownDigest(file, [known])).toEqual(known);
    expect(matchKnownDigest(file, [])).toBeUndefined();
    await appendFile(file, '!');
    expect(matchKnownDigest(file, [known])).toBeUndefined();
  });
});
