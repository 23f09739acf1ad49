import { runGitForReading } from '@statecraft/run';

/** An authority entry that is, at the base, a symbolic link, lies below one, or holds one (mode 120000 in git's tree). */
export interface AuthorityThroughLink {
  entry: string;
  /** The link's path: a leading component of the entry (the entry itself when it is the link), or a path below the entry. */
  link: string;
  /** Where the link sits: the entry itself, above it, or inside it. */
  position: 'entry' | 'above' | 'below';
  /** The link's blob: its bytes are the path it points to. */
  object: string;
}

/** How many links a refusal names; the rest are counted. */
const LINKS_NAMED = 5;

/**
 * The authority entries reached through a symbolic link in the base's tree, or holding one (R13.5).
 * A link protects only itself: a candidate that rewrites the files behind `tests -> testdata`, or
 * behind `tests/check.sh -> ../lib/check.sh`, changes no path under `tests/`, so the authority set
 * would say nothing was touched while the suite ran a test the candidate wrote. Read from git's
 * listing of the base (`ls-tree -r -z`, which lists a link as a blob and never descends through
 * it), never the working tree, and never followed: where a link points at the base is not where it
 * points in the candidate, and a person declares the path that is meant.
 */
export function findAuthorityThroughLinks(listing: string, authority: readonly string[]): AuthorityThroughLink[] {
  const links = new Map<string, string>();
  for (const line of listing.split('\0')) {
    if (!line.startsWith('120000 ')) continue;
    const tab = line.indexOf('\t');
    const object = line.slice(0, tab).split(' ')[2];
    if (tab > 0 && object !== undefined) links.set(line.slice(tab + 1), object);
  }
  if (links.size === 0) return [];
  const found: AuthorityThroughLink[] = [];
  for (const entry of authority) {
    const prefix = entry.replace(/\/$/, '');
    for (const [link, object] of links) {
      const position = link === prefix ? 'entry' : prefix.startsWith(`${link}/`) ? 'above' : link.startsWith(`${prefix}/`) ? 'below' : undefined;
      if (position !== undefined) found.push({ entry, link, position, object });
    }
  }
  return found;
}

/**
 * Why the suite is not judged on such an authority set (R13.4 "the policy unreadable"): each link
 * named with the path it points to at the base, read from its blob for the message only.
 */
export async function describeAuthorityThroughLinks(repository: string, baseCommit: string, found: readonly AuthorityThroughLink[]): Promise<string> {
  const named = await Promise.all(
    found.slice(0, LINKS_NAMED).map(async ({ entry, link, position, object }) => {
      const target = await runGitForReading(repository, ['cat-file', 'blob', object]);
      const pointsTo = target.ok ? ` -> ${new TextDecoder().decode(target.stdout)}` : '';
      const where = { entry: 'is the symbolic link', above: 'lies below the symbolic link', below: 'holds the symbolic link' }[position];
      return `the authority entry "${entry}" ${where} ${link}${pointsTo}`;
    }),
  );
  if (found.length > LINKS_NAMED) named.push(`and ${found.length - LINKS_NAMED} more`);
  return (
    `${named.join('; ')} at the base ${baseCommit}: a link protects only itself, not the files it reaches, so a candidate could rewrite ` +
    `those unseen; statecraft does not follow links: declare the path it points to in "acceptance.authority" instead, or remove the link`
  );
}
