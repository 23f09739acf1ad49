import type { QualificationRecord } from '../qualification/qualification-record.js';
import type { Receipt } from '../receipt.js';

/** The in-toto Statement v1 type, and the payload type of the DSSE envelope that carries one. */
export const IN_TOTO_STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

/** What statecraft signs, one predicate type per kind of record. */
export const PREDICATE_TYPES = {
  receipt: 'https://statecraft.dev/receipt/v1',
  qualification: 'https://statecraft.dev/qualification/v1',
  bundle: 'https://statecraft.dev/bundle-manifest/v1',
} as const;

/** An in-toto resource descriptor: a name and a digest set (algorithm → lower-case hex). */
interface StatementSubject {
  name: string;
  digest: Record<string, string>;
}

export interface InTotoStatement {
  _type: typeof IN_TOTO_STATEMENT_TYPE;
  subject: StatementSubject[];
  predicateType: string;
  predicate: unknown;
}

/**
 * A receipt's statement: its subject is the candidate it judged, the commit and its tree in git's
 * own digests (in-toto's `gitCommit` and `gitTree`, hex of SHA-1 or SHA-256 as the repository
 * hashes), so a verifier can match the signature against the commit it is asked to merge.
 */
export function receiptStatement(receipt: Receipt): InTotoStatement {
  return {
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: [
      { name: 'candidate-commit', digest: { gitCommit: receipt.candidate.commit } },
      { name: 'candidate-tree', digest: { gitTree: receipt.candidate.tree } },
    ],
    predicateType: PREDICATE_TYPES.receipt,
    predicate: receipt,
  };
}

/**
 * A qualification record's statement: its subject is what was qualified, the adapter's bytes and
 * the provider's identity digest (the pair, R3.1); a provider not recorded or `none` adds nothing.
 */
export function qualificationStatement(record: QualificationRecord): InTotoStatement {
  const subject: StatementSubject[] = [{ name: `adapter:${record.adapter.name}@${record.adapter.version}`, digest: { sha256: hexOf(record.adapter.digest) } }];
  if (record.provider !== 'none' && record.provider.digest !== 'not-recorded') {
    subject.push({ name: `provider:${record.provider.name}@${record.provider.version}`, digest: { sha256: hexOf(record.provider.digest) } });
  }
  return { _type: IN_TOTO_STATEMENT_TYPE, subject, predicateType: PREDICATE_TYPES.qualification, predicate: record };
}

function hexOf(digest: string): string {
  return digest.startsWith('sha256:') ? digest.slice('sha256:'.length) : digest;
}

/**
 * A bundle manifest's statement: its subject is the manifest's own bytes, which name every other
 * file's digest, so one signature covers the whole bundle (its records, kept files and git bundle).
 */
export function bundleManifestStatement(manifest: { runId: string }, sha256: string): InTotoStatement {
  return {
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: [{ name: `bundle:${manifest.runId}`, digest: { sha256 } }],
    predicateType: PREDICATE_TYPES.bundle,
    predicate: manifest,
  };
}
