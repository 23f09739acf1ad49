import { leadingFieldsFinder } from './leading-fields.js';
import { compileSummaryCheck, type SummaryCheckSpec } from './summary-fast-check.js';

/**
 * What the hashing worker answers for a batch it also read: every line's digest, and how many of
 * the batch's first lines it read and linked. `values` holds those lines' leading fields, flat:
 * for each line its kind's index in the spec, then its kind's fields in the spec's order, less
 * `prev` (the digest before it) and `kind`. Flat values cross threads ~4× cheaper than objects.
 */
export interface WorkerBatchReading {
  digests: string[];
  /** Lines `[0, verified)` were read and linked on the worker; the rest are this thread's to read. */
  verified: number;
  /** The first line's `prev`: the seam with the batch before, checked by this thread. */
  firstPrev: string;
  values: unknown[];
}

/** How the worker is told to read: its reading function's source and the data it is built from. */
export interface WorkerReadingSetup {
  /** A function expression `(data) => (bytes, first, ends, digests, lines, stopBeforeLast) => reading`. */
  source: string;
  data: unknown;
}

/**
 * Built in the worker (from its source text, so it refers to nothing outside its body and its
 * arguments): reads the leading fields of a batch's first `lines` lines in place, as chain-summary.ts does, and stops at
 * the first line it is not certain of — one its quick check does not accept (which the schema
 * might), one whose `prev` is not the digest of the line before or whose `seq` does not follow,
 * and the file's last line, which `run list` reads whole. Everything from there is read again by
 * the main thread's reader, which gives the refusal its exact words (R8.4).
 */
function summaryBatchReader(
  spec: SummaryCheckSpec,
  compileCheck: typeof compileSummaryCheck,
  findLeadingFields: typeof leadingFieldsFinder,
): (bytes: Buffer, first: number, ends: Uint32Array, digests: string[], lines: number, stopBeforeLast: boolean) => Omit<WorkerBatchReading, 'digests'> {
  const isSummary = compileCheck(spec);
  const leadingFieldsIn = findLeadingFields();
  const kinds = new Map(spec.kinds.map(({ kind, keys }, index) => [kind, { index, keys }]));
  return (bytes, first, ends, digests, lines, stopBeforeLast) => {
    const values: unknown[] = [];
    let firstPrev = '';
    let firstSeq = 0;
    let start = first;
    let verified = 0;
    const readable = Math.min(lines, stopBeforeLast ? ends.length - 1 : ends.length);
    for (; verified < readable; verified += 1) {
      const end = ends[verified]!;
      const leading = leadingFieldsIn(bytes, start, end);
      if (leading === undefined) break;
      let json: Record<string, unknown>;
      try {
        json = JSON.parse(`${leading}}`) as Record<string, unknown>;
      } catch {
        break;
      }
      if (!isSummary(json)) break;
      const kind = kinds.get(json.kind);
      if (kind === undefined) break;
      if (verified === 0) {
        firstPrev = json.prev as string;
        firstSeq = json.seq as number;
      } else if (json.prev !== digests[verified - 1] || json.seq !== firstSeq + verified) break;
      values.push(kind.index);
      for (const key of kind.keys) if (key !== 'prev' && key !== 'kind') values.push(json[key]);
      start = end + 1;
    }
    return { verified, firstPrev, values };
  };
}

/** The worker's reading of summaries: the quick check's data from the schema, the functions as source. */
export function summaryReadingSetup(spec: SummaryCheckSpec): WorkerReadingSetup {
  return {
    source: `(data) => (${String(summaryBatchReader)})(data.spec, (${String(compileSummaryCheck)}), (${String(leadingFieldsFinder)}))`,
    data: { spec },
  };
}

/** The records the worker read, rebuilt from its flat values with their `prev` put back. */
export function rebuildWorkerRecords<R>(spec: SummaryCheckSpec, reading: WorkerBatchReading): R[] {
  const records: R[] = [];
  const { values, digests } = reading;
  let at = 0;
  for (let line = 0; line < reading.verified; line += 1) {
    const { kind, keys } = spec.kinds[values[at++] as number]!;
    const record: Record<string, unknown> = {};
    for (const key of keys) record[key] = key === 'prev' ? (line === 0 ? reading.firstPrev : digests[line - 1]) : key === 'kind' ? kind : values[at++];
    records.push(record as R);
  }
  return records;
}
