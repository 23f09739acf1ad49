import type { ChainRecord } from '../chain/record-schemas.js';
import { readGitBundleHeader } from './git-bundle-header.js';
import type { BundleReading } from './read-bundle.js';
import type { BundleFinding, BundleHold } from './verify-bundle.js';

type Read = Extract<BundleReading, { kind: 'read' }>;

/**
 * The candidate's git bundle, when the bundle carries one: its header must bring exactly one ref,
 * at the candidate the run's last outcome names, and need nothing but the run's base commit. The
 * file's bytes are the manifest's (checked with the others); the commit names its whole tree.
 */
export function verifyGitBundle(bundle: Read, records: readonly ChainRecord[]): { holds: BundleHold[]; findings: BundleFinding[] } {
  const listed = bundle.manifest.files.filter((file) => file.role === 'git-bundle');
  if (listed.length === 0) return { holds: [], findings: [] };
  const findings: BundleFinding[] = [];
  const finding = (file: string, message: string, field?: string): void => {
    findings.push({ check: 'candidate', file, message, ...(field === undefined ? {} : { field }) });
  };
  if (listed.length > 1) finding(listed[1]?.path ?? '', 'is a second git bundle: a bundle carries one candidate');
  const file = listed[0];
  const head = file === undefined ? undefined : bundle.files.get(file.path)?.head;
  if (file === undefined || head === undefined) return { holds: [], findings };
  const header = readGitBundleHeader(head);
  if (typeof header === 'string') {
    finding(file.path, header);
    return { holds: [], findings };
  }
  const intent = records.find((record) => record.kind === 'intent');
  const candidate = candidateOf(records);
  if (header.refs.length !== 1) finding(file.path, `brings ${header.refs.length} refs: a candidate's bundle brings one`, 'refs');
  const ref = header.refs[0];
  if (candidate === undefined) finding(file.path, 'no outcome in the bundle names a committed candidate for it to carry');
  else if (ref !== undefined && ref.commit !== candidate)
    finding(file.path, `brings ${ref.commit}, not the candidate ${candidate} the outcome names`, ref.name);
  if (intent?.kind === 'intent')
    for (const prerequisite of header.prerequisites)
      if (prerequisite !== intent.baseCommit) finding(file.path, `needs ${prerequisite}, not the run's base commit ${intent.baseCommit}`, 'prerequisites');
  const holds: BundleHold[] =
    findings.length === 0 && candidate !== undefined
      ? [{ check: 'candidate', message: `the git bundle brings the candidate ${candidate.slice(0, 12)} from the base` }]
      : [];
  return { holds, findings };
}

/** The candidate commit of the run's last outcome that has one. */
function candidateOf(records: readonly ChainRecord[]): string | undefined {
  return records
    .flatMap((record) => (record.kind === 'outcome' && typeof record.candidate === 'object' && 'commit' in record.candidate ? [record.candidate.commit] : []))
    .at(-1);
}
