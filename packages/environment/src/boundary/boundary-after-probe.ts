import type { BoundaryPath, BoundaryProfile } from '@statecraft/adapter';
import { bindSources, profileArguments, profileDigest, type EstablishedBoundary } from './bwrap-boundary.js';

/**
 * The established boundary with more paths bound read-only over themselves (an acceptance check's
 * authority paths, R13.5), its arguments and record rebuilt from the widened profile so the
 * digest names what is applied. A read-only bind only takes writing away, so the probe that
 * established the boundary still speaks for it.
 */
export function withReadOnlyPaths(boundary: EstablishedBoundary, readOnly: readonly BoundaryPath[]): EstablishedBoundary {
  return readOnly.length === 0 ? boundary : withProfile(boundary, (profile) => ({ ...profile, readOnly: [...profile.readOnly, ...readOnly] }));
}

/**
 * The established sandbox with more paths hidden, as the product home is (an acceptance's checks:
 * the agents' workspaces beside the candidate's worktree, R13.3). Like withReadOnlyPaths, applied
 * after the probe, which still speaks for it (hiding only takes reading away), and recorded in the
 * profile and its digest.
 */
export function withHiddenPaths(boundary: EstablishedBoundary, hidden: readonly BoundaryPath[]): EstablishedBoundary {
  return hidden.length === 0 ? boundary : withProfile(boundary, (profile) => ({ ...profile, hidden: [...profile.hidden, ...hidden] }));
}

/** The established boundary with its profile changed after the probe: arguments, record and digest rebuilt from the new profile. */
function withProfile(boundary: EstablishedBoundary, change: (profile: BoundaryProfile) => BoundaryProfile): EstablishedBoundary {
  const workspace = boundary.record.profile.writable.find((entry) => entry.role === 'workspace');
  if (workspace === undefined) throw new Error('an established boundary profile names its workspace');
  const profile = change(boundary.record.profile);
  // A path added here was checked by its caller to be its own real path (authority-read-only.ts).
  const known = new Map(bindSources(boundary.record.profile, (entry) => entry.path).map((path, index) => [path, boundary.sources[index] ?? path]));
  return {
    ...boundary,
    args: profileArguments(profile, workspace, (entry) => entry.path),
    sources: bindSources(profile, (entry) => known.get(entry.path) ?? entry.path),
    record: { ...boundary.record, profile, profileDigest: profileDigest(profile) },
  };
}
