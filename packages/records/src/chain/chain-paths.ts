import { join } from 'node:path';
import { attemptDirectoryName } from '../attempt-files.js';
import { productHomeLayout } from '../product-home.js';

/** Where one target's records live inside the product home (R8.4): never in the target or the workspace. */
export function chainPaths(targetDirectory: string) {
  return {
    directory: targetDirectory,
    /** The append-only, hash-linked record chain. */
    chain: join(targetDirectory, 'chain.jsonl'),
    /** Held for the life of an attempt (R8.5). */
    lock: join(targetDirectory, 'lock'),
    /** Names the target repository this directory belongs to, for `doctor`. */
    target: join(targetDirectory, 'target.json'),
    /** Per attempt: request, prompt, raw event stream, adapter stderr, result. */
    attempt: (runId: string, attempt: number) => join(targetDirectory, attemptDirectoryName(runId, attempt)),
  };
}
export type ChainPaths = ReturnType<typeof chainPaths>;

/**
 * The files kept for one attempt and their directory, relative to the target directory: named by
 * the attempt core. Readers derive an attempt's files from its run and number with these, never
 * from a path a record holds (a record naming another attempt's files is a finding, not a pointer).
 */
export { attemptArtifactNames, attemptDirectoryName } from '../attempt-files.js';

/** One judgement's directory, relative to the target directory: its check outputs and receipt, inside its attempt's (R13.6). */
export function acceptanceDirectoryName(runId: string, attempt: number, number: number): string {
  return `${attemptDirectoryName(runId, attempt)}/acceptance-${number}`;
}

/** A target's directory in the product home, for readers that name the home and the key. */
export function targetDirectoryIn(home: string, key: string): string {
  return productHomeLayout(home).target(key);
}

/** All target directories of a home live here. */
export function targetsDirectoryIn(home: string): string {
  return productHomeLayout(home).targets;
}
