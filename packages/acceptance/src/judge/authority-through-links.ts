import { runGitForReading } from '@statecraft/run';

/** An authority entry that is, at the base, a symbolic link, or lies below one (mode 120000 in git's tree). */
export interface AuthorityThroughLink {
  entry: string;
  /** The leading component of the entry that is the link (the entry itself when it is the link). */
  link: string;
  /** The link's blob: its bytes are the path it points to. */
  object: string;
}

/** How many links a refusal names; the rest are counted. */
const LINKS_NAMED = 5;

/**
 * The authority entries reached through a symbolic link in the base's tree (R13.5). A link
 * protects only itself: a candidate that rewrites the files behind `tests -> testdata` changes no
 * path under `tests/`, so the authority set would say nothing was touched while the suite ran a
 * test the candidate wrote. Read from git's listing of the base (`ls-tree -r -z`), never the
 * working tree, and never followed: where a link points at the base is not where it points in
 * the candidate, and a person declares the path that is meant.
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
    const components = entry.replace(/\/$/, '').split('/');
    for (let count = 1; count <= components.length; count += 1) {
      const leading = components.slice(0, count).join('/');
      const object = links.get(leading);
      if (object === undefined) continue;
      found.push({ entry, link: leading, object });
      break;
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
    found.slice(0, LINKS_NAMED).map(async ({ entry, link, object }) => {
      const target = await runGitForReading(repository, ['cat-file', 'blob', object]);
      const pointsTo = target.ok ? ` -> ${new TextDecoder().decode(target.stdout)}` : '';
      const where = link === entry.replace(/\/$/, '') ? 'is the symbolic link' : 'lies below the symbolic link';
      return `the authority entry "${entry}" ${where} ${link}${pointsTo}`;
    }),
  );
  if (found.length > LINKS_NAMED) named.push(`and ${found.length - LINKS_NAMED} more`);
  return (
    `${named.join('; ')} at the base ${baseCommit}: a link protects only itself, not the files it reaches, so a candidate could rewrite ` +
    `those unseen (R13.5); statecraft does not follow links: declare the path it points to in "acceptance.authority" instead`
  );
}
