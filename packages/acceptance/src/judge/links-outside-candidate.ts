import { runGitForReading } from '@statecraft/run';

/** A symbolic link the candidate holds whose target leaves its tree: its path and target, as text. */
export interface LinkOutside {
  path: string;
  target: string;
}

/** Linux follows at most 40 links in one lookup (ELOOP): a chain longer than that reads nothing. */
const MAX_LINKS_FOLLOWED = 40;

/**
 * The candidate's symbolic links whose targets leave its tree (R13.3), read as git holds the
 * commit (mode 120000 entries, the blob being the target), never by following the checked-out
 * worktree, which a check may have changed. A receipt says the suite passed over exactly the
 * candidate's bytes: a link to an absolute path, one climbing above the tree's root, one into the
 * worktree's `.git` (not the candidate's), or one reaching such a place through another link makes
 * a check read bytes the candidate does not hold — the agent's workspace, say.
 */
export async function findLinksOutsideCandidate(repository: string, commit: string): Promise<LinkOutside[] | { failed: string }> {
  const listing = await runGitForReading(repository, ['ls-tree', '-r', '-z', '--full-tree', commit]);
  if (!listing.ok) return { failed: `git ls-tree -r ${commit}: ${listing.message}` };
  // Names as latin1 (one character per byte) while resolving, so two distinct byte strings never
  // read as the same name; shown as UTF-8.
  const objects = new Map<string, string>();
  for (const entry of Buffer.from(listing.stdout).toString('latin1').split('\0')) {
    if (!entry.startsWith('120000 ')) continue;
    const tab = entry.indexOf('\t');
    objects.set(entry.slice(tab + 1), entry.slice(0, tab).split(' ')[2] ?? '');
  }
  if (objects.size === 0) return [];
  const blobs = await runGitForReading(repository, ['cat-file', '--batch'], `${[...objects.values()].join('\n')}\n`);
  if (!blobs.ok) return { failed: `git cat-file --batch (the candidate's link targets): ${blobs.message}` };
  const targets = readBatch(Buffer.from(blobs.stdout));
  const links = new Map([...objects].map(([path, object]) => [path, targets.get(object) ?? '']));
  const shown = (text: string): string => Buffer.from(text, 'latin1').toString('utf8');
  return [...links.keys()].filter((path) => leavesTree(path, links)).map((path) => ({ path: shown(path), target: shown(links.get(path) ?? '') }));
}

/** `git cat-file --batch` output (`<object> <type> <size>\n<bytes>\n` each) as object → bytes in latin1. */
function readBatch(bytes: Buffer): Map<string, string> {
  const contents = new Map<string, string>();
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf(0x0a, at);
    if (end < 0) break;
    const [object = '', , size] = bytes.subarray(at, end).toString('latin1').split(' ');
    const length = Number(size);
    // `<object> missing`: no size, nothing follows; the link then reads as an empty target.
    if (!Number.isInteger(length)) {
      at = end + 1;
      continue;
    }
    contents.set(object, bytes.subarray(end + 1, end + 1 + length).toString('latin1'));
    at = end + 1 + length + 1;
  }
  return contents;
}

/**
 * Whether the link at `path` resolves outside the tree, resolved as the kernel would inside the
 * checked-out tree: components in order from the link's directory (a directory git holds a path
 * under is never itself a link), `..` popping one, and a component that is another link of the
 * tree replaced by that link's target. An empty target (a missing blob) leaves nothing.
 */
export function leavesTree(path: string, links: ReadonlyMap<string, string>): boolean {
  const resolved = path.split('/').slice(0, -1);
  const first = links.get(path) ?? '';
  if (first.startsWith('/')) return true;
  const pending = first.split('/');
  let followed = 1;
  while (pending.length > 0) {
    const part = pending.shift() ?? '';
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (resolved.length === 0) return true;
      resolved.pop();
      continue;
    }
    resolved.push(part);
    // The worktree's `.git` is a pointer to the repository's git directory, not the candidate's.
    if (resolved.length === 1 && part.toLowerCase() === '.git') return true;
    const next = links.get(resolved.join('/'));
    if (next === undefined) continue;
    // A loop: reading through it fails (ELOOP), so nothing outside is read.
    if (++followed > MAX_LINKS_FOLLOWED) return false;
    if (next.startsWith('/')) return true;
    resolved.pop();
    pending.unshift(...next.split('/'));
  }
  return false;
}
