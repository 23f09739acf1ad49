/** A git bundle's header: the commits it needs the receiver to hold, and the refs it brings. */
export interface GitBundleHeader {
  prerequisites: string[];
  refs: { commit: string; name: string }[];
}

/**
 * Reads the header of a git bundle (v2 or v3, as `git bundle create` writes it) from its first
 * bytes, without git: the signature line, v3's capability lines, `-<commit>` prerequisites and
 * `<commit> <ref>` lines, up to the empty line before the pack. A string says why it is not one.
 */
export function readGitBundleHeader(head: Buffer): GitBundleHeader | string {
  const end = head.indexOf('\n\n');
  if (end < 0) return 'has no git bundle header (no empty line before its pack)';
  const lines = head.subarray(0, end).toString('utf8').split('\n');
  const signature = lines.shift();
  if (signature !== '# v2 git bundle' && signature !== '# v3 git bundle') return 'does not start as a git bundle (# v2 git bundle)';
  const header: GitBundleHeader = { prerequisites: [], refs: [] };
  for (const line of lines) {
    if (signature === '# v3 git bundle' && line.startsWith('@')) continue;
    const prerequisite = /^-([0-9a-f]{40}|[0-9a-f]{64})(?: .*)?$/.exec(line);
    if (prerequisite?.[1] !== undefined) {
      header.prerequisites.push(prerequisite[1]);
      continue;
    }
    const ref = /^([0-9a-f]{40}|[0-9a-f]{64}) (\S+)$/.exec(line);
    if (ref?.[1] === undefined || ref[2] === undefined) return `has a header line that is not a commit or a ref: ${JSON.stringify(line.slice(0, 80))}`;
    header.refs.push({ commit: ref[1], name: ref[2] });
  }
  return header;
}
