import { createHash } from 'node:crypto';
import type { ChainEntry } from '../chain/open-chain.js';
import { ChainRecordSchema, type IntentRecord, type RunGroup } from '../chain/record-schemas.js';
import { manifestBytes } from '../bundle/bundle-manifest.js';
import { RECORDS_PATH } from '../bundle/collect-bundle.js';
import { readBundle, type BundleReading } from '../bundle/read-bundle.js';
import { verifyBundleContents } from '../bundle/verify-bundle.js';
import { verifyBundleSignatures } from '../bundle/verify-signatures.js';
import type { TrustedKey } from '../signing/trusted-keys.js';
import { parseBoundedJson } from '../bounded-json.js';
import { attemptWorkspaceLocation, workspaceLocation } from '../workspace-location.js';

/** A bundle that verified with the trusted keys and holds one attempt of a run group. */
export interface GroupBundle {
  path: string;
  /** The sha256 of its manifest: every file's digest, so the whole bundle. */
  digest: string;
  reading: Extract<BundleReading, { kind: 'read' }>;
  entries: ChainEntry[];
  intent: IntentRecord & { group: RunGroup };
}

/**
 * Reads and verifies one bundle offline, as `statecraft verify` does, with the trusted keys:
 * the bundle, or why it is not one attempt of a group that can be believed, in words that name
 * the file inside it where that is what does not hold.
 */
export async function readGroupBundle(path: string, trusted: readonly TrustedKey[]): Promise<GroupBundle | { why: string }> {
  const reading = await readBundle(path);
  if (reading.kind === 'unreadable') return { why: `cannot be read: ${reading.path === path ? '' : `${reading.path} `}${reading.message}` };
  const contents = verifyBundleContents(reading);
  const signatures = await verifyBundleSignatures(reading, trusted);
  const findings = [...contents.findings, ...signatures.findings];
  const first = findings[0];
  if (first !== undefined) {
    const more = findings.length > 1 ? ` (and ${findings.length - 1} more: statecraft verify names them)` : '';
    return { why: `does not verify: ${first.file}${first.field === undefined ? '' : ` ${first.field}`}: ${first.message}${more}` };
  }
  const entries = chainEntries(reading);
  const intents = entries.flatMap((entry) => (entry.record.kind === 'intent' ? [entry.record] : []));
  const intent = intents[0];
  if (intent === undefined) return { why: 'holds no attempt' };
  if (intents.length > 1) return { why: `holds ${intents.length} attempts: a group's bundle holds one` };
  if (intent.group === undefined) return { why: 'belongs to no group: its attempt was not run with --group' };
  // A landing fetches into the branch these records name: only one statecraft names from the run
  // id is ever believed, never a branch of the target's own (its main, its release).
  const own = [...new Set([workspaceLocation('', intent.runId).branch, attemptWorkspaceLocation('', intent.runId, intent.attempt).branch])];
  if (!own.includes(intent.branch)) return { why: `its records name the branch ${intent.branch}, not the run's own (${own.join(' or ')})` };
  const digest = createHash('sha256').update(manifestBytes(reading.manifest)).digest('hex');
  return { path, digest, reading, entries, intent: intent as IntentRecord & { group: RunGroup } };
}

/** The bundle's records as chain entries (verified already: each line parses, and links). */
function chainEntries(reading: Extract<BundleReading, { kind: 'read' }>): ChainEntry[] {
  const text = reading.files.get(RECORDS_PATH)?.content?.toString('utf8') ?? '';
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line, index) => ({
      record: ChainRecordSchema.parse(parseBoundedJson(line)),
      digest: createHash('sha256').update(line).digest('hex'),
      lineNumber: index + 1,
    }));
}
