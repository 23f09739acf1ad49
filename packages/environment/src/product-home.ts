import { createHash } from 'node:crypto';
import { accessSync, constants, mkdtempSync, rmdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { makeDirectories } from '@statecraft/adapter';

/** Where the product home came from: the operator's `STATECRAFT_HOME`, or the default `~/.statecraft`. */
export type ProductHomeSource = 'STATECRAFT_HOME' | 'default';

export interface ProductHome {
  /** Absolute path; it may not exist yet (a missing home is an empty home). */
  path: string;
  source: ProductHomeSource;
}

/**
 * Resolves the product home (R8.4): `$STATECRAFT_HOME`, else `~/.statecraft`. Records live here,
 * never in the target repository or the workspace. A relative `STATECRAFT_HOME` is resolved
 * against the working directory so every record names an absolute place.
 */
export function resolveProductHome(environment: Readonly<Record<string, string | undefined>> = process.env): ProductHome {
  const configured = environment['STATECRAFT_HOME'];
  if (configured !== undefined && configured !== '') {
    return { path: isAbsolute(configured) ? configured : resolve(configured), source: 'STATECRAFT_HOME' };
  }
  return { path: join(homedir(), '.statecraft'), source: 'default' };
}

/**
 * The key a target repository's records are filed under: a digest of its absolute real path, so
 * two spellings of one repository (a symlink, a trailing slash) share one chain.
 */
export function targetKey(realTargetPath: string): string {
  return createHash('sha256').update(realTargetPath).digest('hex').slice(0, 32);
}

/** The directories of the product home, in one place so readers and writers agree. */
export function productHomeLayout(home: string) {
  const targets = join(home, 'targets');
  return {
    home,
    targets,
    qualifications: join(home, 'qualifications'),
    /** File digests remembered by file identity, so an unchanged binary is hashed once. */
    digests: join(home, 'cache', 'digests'),
    /** What a tool said of its version (bwrap's, for the boundary record), remembered by file identity. */
    toolVersions: join(home, 'cache', 'tool-versions'),
    /** Every managed path a boundary bound writable, one file each (writable-paths-remembered.ts). */
    writablePaths: join(home, 'writable-paths'),
    /** Everything statecraft keeps about one target repository. */
    target: (key: string) => join(targets, key),
  };
}
export type ProductHomeLayout = ReturnType<typeof productHomeLayout>;

/**
 * Makes the product home for a verb that writes records there (run, accept, run reconcile),
 * before it does anything else: a home that cannot be made or written — under a file, on /proc or
 * /sys, on a read-only file system — fails at once with a system error naming the home (exit 4),
 * instead of later, halfway through an attempt, naming a file deep inside it.
 */
export function makeProductHome(home: string): void {
  namingTheHome(home, () => {
    makeDirectories(home, 0o700);
    accessSync(home, constants.W_OK | constants.X_OK);
    // A home on a file system that takes no new directory (/proc itself) passes the access check.
    makeDirectories(productHomeLayout(home).targets, 0o700);
  });
}

/**
 * The same answer without making the home, for a verb that may record nothing (`qualify`, whose
 * failed suite leaves no trace): a directory is made and removed at once where the home is, or
 * where its nearest existing parent is, since only trying tells /proc from a directory that takes one.
 */
export function checkProductHomeWritable(home: string): void {
  namingTheHome(home, () => {
    let existing = resolve(home);
    for (let found = statSync(existing, { throwIfNoEntry: false }); found === undefined; found = statSync(existing, { throwIfNoEntry: false })) {
      if (dirname(existing) === existing) break;
      existing = dirname(existing);
    }
    rmdirSync(mkdtempSync(join(existing, '.statecraft-home-probe-')));
  });
}

function namingTheHome(home: string, step: () => void): void {
  try {
    step();
  } catch (error) {
    const system = error as NodeJS.ErrnoException;
    throw Object.assign(
      new Error(`${home}: the product home cannot be made or written there (${system.message}); set STATECRAFT_HOME to a directory statecraft can write`),
      { code: system.code ?? 'EIO', path: home, cause: error },
    );
  }
}
