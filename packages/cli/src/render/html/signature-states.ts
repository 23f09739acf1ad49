import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { listQualificationRecords, type AttemptAccount } from '@statecraft/records';

/**
 * Whether a Sigstore bundle lies beside a record. The page only looks: verifying it is `verify`'s
 * work, so a bundle found is said to be present, never to hold.
 */
export type SignatureState = { kind: 'present'; path: string } | { kind: 'unsigned'; path: string } | { kind: 'no-record'; why: string };

export interface SignatureStates {
  receipt: SignatureState;
  qualification: SignatureState;
}

/** The bundles a signer leaves beside the receipt (`receipt.sigstore.json`) and the qualification record (`<record>.sigstore.json`). */
export async function readSignatureStates(home: string, account: AttemptAccount): Promise<SignatureStates> {
  return { receipt: receiptSignature(account), qualification: await qualificationSignature(home, account) };
}

function beside(path: string, candidates: readonly string[]): SignatureState {
  const found = candidates.find((candidate) => existsSync(candidate));
  return found === undefined ? { kind: 'unsigned', path } : { kind: 'present', path: found };
}

function receiptSignature(account: AttemptAccount): SignatureState {
  const acceptance = account.acceptance;
  if (acceptance === 'not-recorded' || acceptance.receiptFile === 'none') return { kind: 'no-record', why: 'no receipt: the attempt was not accepted' };
  const path = acceptance.receiptFile.path;
  return beside(path, [join(dirname(path), 'receipt.sigstore.json')]);
}

async function qualificationSignature(home: string, account: AttemptAccount): Promise<SignatureState> {
  const label = account.posture.qualification;
  if (label.verdict !== 'qualified') return { kind: 'no-record', why: 'no qualification record qualifies this adapter' };
  let records: Awaited<ReturnType<typeof listQualificationRecords>>['records'];
  try {
    ({ records } = await listQualificationRecords(home));
  } catch {
    return { kind: 'no-record', why: 'the qualification records could not be listed' };
  }
  if (label.record === undefined) return { kind: 'no-record', why: 'the label names no record (recorded before labels carried its id)' };
  // The record that qualified the attempt then, by the id its label carries.
  const record = records.find((entry) => entry.id === label.record);
  if (record === undefined) return { kind: 'no-record', why: 'the record the label names is no longer in the product home' };
  const base = record.path.replace(/\.json$/, '');
  return beside(record.path, [`${base}.sigstore.json`, `${record.path}.sigstore.json`]);
}
