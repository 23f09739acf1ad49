import { describeSchemaIssues } from '@statecraft/adapter';
import { ChainRecordSchema } from './record-schemas.js';
import { MAX_RECORD_BYTES } from './record-bound.js';

/**
 * A record the chain's own reader would refuse. Appending it would break the chain for every
 * later reader (`run show`, `run list`, `doctor` refuse a chain with a record they cannot read),
 * and records are never rewritten; so it is refused before a byte is written. It is a defect of
 * the writer, never of the operator's input.
 */
export class UnreadableRecordError extends Error {
  readonly path: string;
  constructor(path: string, problems: string) {
    super(
      `${path}: a record the chain's reader would refuse was not appended; nothing was written:\n${problems}\nreport this as a statecraft defect, with the field named above`,
    );
    this.name = 'UnreadableRecordError';
    this.path = path;
  }
}

/**
 * Parses a linked record with the schema the reader uses, so the writer cannot
 * write what the reader will refuse. Throws UnreadableRecordError naming each field at fault.
 */
export function refuseUnreadableRecord(chainFile: string, record: unknown): void {
  const parsed = ChainRecordSchema.safeParse(record);
  if (parsed.success) return;
  const kind = typeof record === 'object' && record !== null && 'kind' in record ? String(record.kind) : 'unknown';
  throw new UnreadableRecordError(chainFile, describeSchemaIssues(`${kind} record`, parsed.error));
}

/**
 * A record longer than the chain's bound (record-bound.ts), which every reader refuses: refused
 * before a byte is written, naming its largest fields, as a record the schema refuses is.
 */
export function refuseOverlongRecord(chainFile: string, record: object, line: string): void {
  const bytes = Buffer.byteLength(line);
  if (bytes <= MAX_RECORD_BYTES) return;
  const largest = Object.entries(record)
    .map(([field, value]) => ({ field, bytes: Buffer.byteLength(JSON.stringify(value) ?? '') }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 3)
    .map(({ field, bytes: size }) => `"${field}" ${size} bytes`)
    .join(', ');
  const kind = 'kind' in record ? String(record.kind) : 'unknown';
  throw new UnreadableRecordError(
    chainFile,
    `the ${kind} record is ${bytes} bytes, over the chain's bound of ${MAX_RECORD_BYTES} bytes a record (largest fields: ${largest})`,
  );
}
