import { join } from 'node:path';
import { ReceiptSchema } from '../receipt.js';
import type { AcceptanceRecord } from '../chain/acceptance-record.js';
import { differences, readSealedJson, wholeFile, type FieldDisagreement } from '../read/records-against-kept-files.js';

/**
 * The receipt an acceptance record carries against the receipt.json it keeps beside the chain
 * (R13.6): the judge writes the file from the very object the record holds (accept-attempt.ts), so
 * they differ only when one was changed afterwards — a record that took another attempt's receipt
 * file and rewrote the attempt it names kept the file's digest and not its content. Compared only when the file has the digest the record holds (an altered or missing
 * one is its own finding) and lies where the judged attempt keeps it; empty when they agree.
 */
export function receiptAgainstRecord(targetDirectory: string, record: AcceptanceRecord): FieldDisagreement[] {
  if (record.receipt === 'none' || record.receiptFile === 'none') return [];
  const kept = readSealedJson({ ...record.receiptFile, path: join(targetDirectory, record.receiptFile.path) });
  if (kept.kind === 'not-sealed') return [];
  if (kept.kind === 'unparsable') return [wholeFile('JSON', kept.message)];
  const parsed = ReceiptSchema.safeParse(kept.json);
  if (!parsed.success) return [wholeFile('a receipt', parsed.error.message)];
  return differences('receipt', record.receipt, '', parsed.data);
}
