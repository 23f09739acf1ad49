import { statSync } from 'node:fs';
import type { BigIntStats } from 'node:fs';
import { stat } from 'node:fs/promises';
import * as z from 'zod';

/**
 * What identifies a file's bytes without reading them: its device and inode, its size, and its
 * modification and change times in nanoseconds. A write to the file moves the change time, which
 * no ordinary program can set back (only the clock or a raw write to the device can), so an equal
 * identity is taken to mean equal bytes. Kept as decimal strings: the numbers exceed 2^53.
 */
export const FileIdentitySchema = z.strictObject({
  device: z.string().regex(/^\d+$/),
  inode: z.string().regex(/^\d+$/),
  size: z.string().regex(/^\d+$/),
  modifiedNs: z.string().regex(/^\d+$/),
  changedNs: z.string().regex(/^\d+$/),
});
export type FileIdentity = z.infer<typeof FileIdentitySchema>;

/** The identity of the file at `path` (symlinks followed). */
export async function readFileIdentity(path: string): Promise<FileIdentity> {
  return identityFrom(await stat(path, { bigint: true }));
}

/** The same, read synchronously: for an adapter on its way to the provider's start, with nothing else to do meanwhile. */
export function readFileIdentitySync(path: string): FileIdentity {
  return identityFrom(statSync(path, { bigint: true }));
}

function identityFrom(info: BigIntStats): FileIdentity {
  return {
    device: info.dev.toString(),
    inode: info.ino.toString(),
    size: info.size.toString(),
    modifiedNs: info.mtimeNs.toString(),
    changedNs: info.ctimeNs.toString(),
  };
}

export function sameFileIdentity(left: FileIdentity, right: FileIdentity): boolean {
  return (
    left.device === right.device &&
    left.inode === right.inode &&
    left.size === right.size &&
    left.modifiedNs === right.modifiedNs &&
    left.changedNs === right.changedNs
  );
}
