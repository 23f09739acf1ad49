import { randomBytes } from 'node:crypto';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { makeDirectories } from '@statecraft/adapter';
import type * as z from 'zod';

/**
 * One entry a cache in the product home keeps (remembered-digests.ts, remembered-bwrap-version.ts): read
 * and checked against its schema, or absent when it is missing, unreadable or not what the schema
 * says — a cache never fails what asked it, it only recomputes.
 */
export async function readRememberedEntry<T>(entryFile: string, schema: z.ZodType<T>): Promise<T | undefined> {
  try {
    const parsed = schema.safeParse(JSON.parse(await readFile(entryFile, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Written whole to a private name and renamed into place, so a reader sees nothing or a complete
 * entry. Not fsync'd: an entry lost in a crash costs one recomputation, and a torn one fails its
 * schema and is recomputed. A cache that cannot be written is simply not kept.
 */
export async function writeRememberedEntry(cacheDirectory: string, entryFile: string, entry: unknown): Promise<void> {
  const temporary = `${entryFile}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    makeDirectories(cacheDirectory, 0o700);
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(entry)}\n`);
    } finally {
      await handle.close();
    }
    await rename(temporary, entryFile);
  } catch {
    await unlink(temporary).catch(() => undefined);
  }
}
