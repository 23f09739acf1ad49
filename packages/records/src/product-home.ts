import { createHash } from 'node:crypto';
import { lstatSync, mkdtempSync, readlinkSync, rmdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** Where the product home came from: the operator's `STATECRAFT_HOME`, or the default `~/.statecraft`. */
type ProductHomeSource = 'STATECRAFT_HOME' | 'default';

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

/**
 * Checks, before a verb that writes records does anything else (run, accept, run reconcile), that
 * the product home can be made and written, without making it: a refusal made later (a home inside
 * the target, say) must leave nothing behind. A directory is made and removed at once where the
 * home is, or where its nearest existing parent is, since only trying tells /proc or /sys from a
 * directory that takes one. A home under a file, on /proc, /sys or a read-only mount fails here
 * with a system error naming the home (exit 4), not halfway through an attempt.
 */
export function checkProductHomeWritable(home: string): void {
  namingTheHome(home, () => {
    let existing = resolve(home);
    for (let found = statSync(existing, { throwIfNoEntry: false }); found === undefined; found = statSync(existing, { throwIfNoEntry: false })) {
      refuseDanglingLink(existing);
      if (dirname(existing) === existing) break;
      existing = dirname(existing);
    }
    rmdirSync(mkdtempSync(join(existing, '.statecraft-home-probe-')));
  });
}

/**
 * A path that is a symbolic link to nothing: no directory can be made there (mkdir answers
 * EEXIST), and probing its parent instead would pass a home no verb can make.
 */
export function refuseDanglingLink(path: string): void {
  if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true) {
    throw Object.assign(new Error(`ENOENT: a symbolic link to ${readlinkSync(path)}, which does not exist, '${path}'`), { code: 'ENOENT', path });
  }
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
