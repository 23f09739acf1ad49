import { extractVerificationCommands } from '@statecraft/run';
import { sha256Hex } from '@statecraft/adapter';
import { parseProjectDeclaration, PROJECT_DECLARATION_PATH } from '@statecraft/environment';
import { readCoverageInputs, runGitForReading, specCandidatePaths } from '@statecraft/run';
import { describeAuthorityThroughLinks, findAuthorityThroughLinks } from './authority-through-links.js';

/**
 * The authority set (R13.5): the spec (every path its id's lookup consults), the declaration, what
 * decides the bytes git checks out (CHECKOUT_CONFIGURATION), and the declared authority path
 * prefixes. `atBase`: the base's regular files under it, with their blobs.
 */
interface AuthoritySet {
  paths: string[];
  atBase: AuthorityFile[];
}

/** A regular file of the authority set at the base: its path and git's object name of its bytes. */
export interface AuthorityFile {
  path: string;
  object: string;
}

/**
 * What git reads from the tree itself to decide the bytes it checks out (or, for `.gitmodules`,
 * what a check's `git submodule` fetches): `.gitattributes` in any directory (`eol`, `ident`, a
 * filter, `working-tree-encoding` change an authority file's bytes without touching it),
 * `.gitmodules`, and `.lfsconfig` (where git-lfs fetches a file's bytes from). An entry led by
 * ANY_DIRECTORY names a file of that name in any directory (isUnderAuthority).
 */
const CHECKOUT_CONFIGURATION = ['**/.gitattributes', '.gitmodules', '.lfsconfig'] as const;
const ANY_DIRECTORY = '**/';

export type SuiteReading =
  | {
      kind: 'read';
      suite: { kind: 'spec' | 'declaration'; path: string; baseCommit: string; commands: string[] } | 'none';
      authority: AuthoritySet;
      /** `sha256:` over the authority set's entries at the base. */
      policyDigest: string;
    }
  | { kind: 'unreadable'; message: string };

/**
 * Reads the suite and the policy at the base commit, never from the candidate (R13.3): the spec's
 * Verification commands (the spec the run recorded, read as command coverage reads it at launch,
 * R9.4), or, for a run with no spec, `acceptance.checks` of the base's `.statecraft/environment.json`.
 * The authority set is read from the same declaration at the same commit (R13.5).
 */
export async function readSuiteAtBase(input: {
  repository: string;
  baseCommit: string;
  /** A spec id, or `none` for a run without one. */ specId: string;
}): Promise<SuiteReading> {
  // The base's whole listing (for the policy digest) first: the inputs' entries are found in it,
  // so only their bytes are asked of git. Without it, the inputs are read as before, and their
  // refusal (a bad commit) is the one named.
  const listing = await runGitForReading(input.repository, ['ls-tree', '-r', '-z', '--full-tree', input.baseCommit]);
  const inputs = await readCoverageInputs({
    repository: input.repository,
    ...(input.specId === 'none' ? {} : { spec: input.specId }),
    source: { kind: 'commit', commit: input.baseCommit, resolved: true, ...(listing.ok ? { listing: listing.stdout } : {}) },
  });
  if (inputs.kind === 'refused') return { kind: 'unreadable', message: inputs.message };
  let declared: { checks: string[] | 'none'; authority: string[] } = { checks: 'none', authority: [] };
  if (inputs.declaration.kind === 'present') {
    const parsed = parseProjectDeclaration(inputs.declaration.text, `${PROJECT_DECLARATION_PATH} at ${input.baseCommit}`);
    if (parsed.kind === 'refused') return { kind: 'unreadable', message: parsed.message };
    declared = parsed.acceptance;
  }
  // Every path the spec's lookup consults, not only the one it found: a candidate that adds
  // `specs/<id>/spec.md` over a base's `specs/<id>.md` replaces the spec of every later run.
  const specPaths = inputs.spec === 'none' ? [] : [inputs.spec.path, ...specCandidatePaths(inputs.spec.id)];
  const paths = [...new Set([...specPaths, PROJECT_DECLARATION_PATH, ...CHECKOUT_CONFIGURATION, ...declared.authority])];
  const listed = listing.ok ? new TextDecoder().decode(listing.stdout) : listing;
  const policyDigest = digestAuthorityAt(listed, input.baseCommit, paths);
  if (policyDigest.kind === 'unreadable') return policyDigest;
  const authority: AuthoritySet = { paths, atBase: policyDigest.files };
  // An authority entry that is a link at the base protects only the link (R13.5): no suite is judged on it.
  const throughLinks = findAuthorityThroughLinks(typeof listed === 'string' ? listed : '', authority.paths);
  if (throughLinks.length > 0) return { kind: 'unreadable', message: await describeAuthorityThroughLinks(input.repository, input.baseCommit, throughLinks) };

  let suite: Extract<SuiteReading, { kind: 'read' }>['suite'] = 'none';
  if (inputs.spec !== 'none') {
    const extraction = extractVerificationCommands(inputs.spec.text, `${inputs.spec.path} at ${input.baseCommit}`);
    if (extraction.kind === 'refused') return { kind: 'unreadable', message: extraction.message };
    // An empty Verification block is a deliberate empty plan: nothing to judge by, so no suite.
    if (extraction.commands.length > 0) {
      suite = { kind: 'spec', path: inputs.spec.path, baseCommit: input.baseCommit, commands: extraction.commands.map((command) => command.text) };
    }
  } else if (declared.checks !== 'none') {
    suite = { kind: 'declaration', path: PROJECT_DECLARATION_PATH, baseCommit: input.baseCommit, commands: declared.checks };
  }
  return { kind: 'read', suite, authority, policyDigest: policyDigest.digest };
}

/** Whether a changed path falls under an authority entry: the entry itself, or anything below it (one led by ANY_DIRECTORY: a file of its name anywhere). */
function isUnderAuthority(path: string, entry: string): boolean {
  if (entry.startsWith(ANY_DIRECTORY)) {
    const name = entry.slice(ANY_DIRECTORY.length);
    return path === name || path.endsWith(`/${name}`);
  }
  const prefix = entry.replace(/\/$/, '');
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * Whether a path the candidate changed touches an authority entry (R13.5). Compared as a
 * case-insensitive file system that normalizes Unicode would (macOS, Windows): there `TESTS/x` or
 * a decomposed `tésts/x` is the very file `tests/x` names, and replaces it at checkout. Matching
 * more than git does costs only a person's look at a rare name.
 */
export function touchesAuthority(path: string, entry: string): boolean {
  const fold = (text: string): string => text.normalize('NFC').toLowerCase();
  return isUnderAuthority(fold(path), fold(entry));
}

/**
 * The policy digest (R13.6): sha256 over the base's tree entries (`mode type object\tpath`) that
 * fall under the authority set, in git's order. Each object name is git's hash of those very
 * bytes, so the digest changes when any byte of the set does, with one git call however large the
 * set (decision 0034). Entries absent at the base contribute nothing.
 */
function digestAuthorityAt(
  listing: string | { ok: false; message: string },
  commit: string,
  authority: readonly string[],
): { kind: 'digested'; digest: string; files: AuthorityFile[] } | { kind: 'unreadable'; message: string } {
  if (typeof listing !== 'string') return { kind: 'unreadable', message: `git ls-tree -r ${commit}: ${listing.message}` };
  const entries = listing.split('\0').filter((entry) => {
    const path = entry.slice(entry.indexOf('\t') + 1);
    return entry !== '' && authority.some((authorityPath) => isUnderAuthority(path, authorityPath));
  });
  // `mode type object\tpath`: the regular files (100644, 100755), whose checked-out bytes are compared with their blobs.
  const files = entries
    .filter((entry) => entry.startsWith('100644 blob ') || entry.startsWith('100755 blob '))
    .map((entry) => ({ path: entry.slice(entry.indexOf('\t') + 1), object: entry.slice('100644 blob '.length, entry.indexOf('\t')) }));
  return { kind: 'digested', digest: `sha256:${sha256Hex(JSON.stringify({ authority, entries }))}`, files };
}
