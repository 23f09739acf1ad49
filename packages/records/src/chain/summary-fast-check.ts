import * as z from 'zod';

/**
 * A quick check that accepts a parsed summary only when ChainSummarySchema certainly accepts it
 * too; anything it is unsure of goes to the schema, which stays the one definition and gives the
 * error. `run list` reads 200,000 summaries for 100,000 attempts, and the schema's parse of each
 * (a discriminated union of strict objects, a datetime pattern) was its largest cost after
 * hashing. The key sets, the enums' values and the datetime pattern are read from the schema; the other
 * fields' checks are as strict as the schema's or stricter (summary-fast-check.test.ts holds the two to
 * that on every field). A field with no check here sends its kind to the schema every time.
 */
export function quickSummaryCheck(schema: z.ZodDiscriminatedUnion<z.ZodObject[]>): (json: unknown) => boolean {
  return compileSummaryCheck(summaryCheckSpec(schema));
}

/** One field's check as data, so the worker that reads summaries (summary-reading-on-worker.ts) builds the same one. */
type FieldCheckSpec = { values: unknown[] } | { pattern: string; flags: string } | { named: string };

/** The kinds every field of which has a check; a kind not listed goes to the schema every time. */
export interface SummaryCheckSpec {
  kinds: { kind: unknown; keys: string[]; checks: FieldCheckSpec[] }[];
}

/** The fields compileSummaryCheck checks by name (its own table, which it cannot share: see there). */
const NAMED_CHECKS = new Set(['prev', 'seq', 'runId', 'attempt', 'adapter', 'intent', 'refusalCount', 'cost', 'timedOut']);

/** Reads the quick check's data from the schema: key sets, enum and literal values, the datetime pattern. */
export function summaryCheckSpec(schema: z.ZodDiscriminatedUnion<z.ZodObject[]>): SummaryCheckSpec {
  const kinds: SummaryCheckSpec['kinds'] = [];
  for (const option of schema.options) {
    const shape = option.shape as Record<string, z.ZodType>;
    const keys = Object.keys(shape);
    const checks = keys.map((key) => checkSpecFor(key, shape[key]));
    const kind = shape.kind;
    if (!(kind instanceof z.ZodLiteral) || kind.values.size !== 1) continue;
    if (checks.every((check) => check !== undefined)) kinds.push({ kind: kind.value, keys, checks });
  }
  return { kinds };
}

/** A field's check: an enum's or literal's values read from the schema, else a named check. */
function checkSpecFor(key: string, field: z.ZodType | undefined): FieldCheckSpec | undefined {
  if (field instanceof z.ZodEnum) return { values: [...field.options] };
  // The schema's own pattern: a datetime format checks nothing else (no offset, any precision).
  if (field instanceof z.ZodISODateTime && field.def.pattern !== undefined && (field.def.checks ?? []).length === 0) {
    return { pattern: field.def.pattern.source, flags: field.def.pattern.flags };
  }
  if (field instanceof z.ZodLiteral) return { values: [...field.values] };
  return NAMED_CHECKS.has(key) ? { named: key } : undefined;
}

/**
 * The check itself. It refers to nothing outside its own body, so the worker's program can be
 * given its source text (`String(compileSummaryCheck)`) and build the very same check there.
 */
export function compileSummaryCheck(spec: SummaryCheckSpec): (json: unknown) => boolean {
  const DIGEST = /^[0-9a-f]{64}$/;
  // An outcome's `intent` is the digest its `prev` carries: the last string the pattern accepted
  // is remembered, so that one is not matched twice (it starts as a digest, never as a non-digest).
  let lastDigest = '0'.repeat(64);
  const isDigest = (value: unknown) => {
    if (value === lastDigest) return true;
    if (typeof value !== 'string' || !DIGEST.test(value)) return false;
    lastDigest = value;
    return true;
  };
  const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
  const isNonEmptyString = (value: unknown) => typeof value === 'string' && value.length > 0;
  // Checks by field name, each as strict as the schema's field (or stricter).
  const named: Record<string, (value: unknown) => boolean> = {
    prev: (value) => value === 'genesis' || isDigest(value),
    seq: isCount,
    runId: isNonEmptyString,
    attempt: (value) => isCount(value) && (value as number) > 0,
    adapter: (value) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
      const adapter = value as Record<string, unknown>;
      return Object.keys(adapter).length === 2 && isNonEmptyString(adapter.name) && isNonEmptyString(adapter.version);
    },
    intent: isDigest,
    refusalCount: isCount,
    cost: (value) => value === 'unknown' || (typeof value === 'number' && Number.isFinite(value) && value >= 0),
    timedOut: (value) => typeof value === 'boolean',
  };
  const compile = (check: FieldCheckSpec): ((value: unknown) => boolean) => {
    if ('values' in check) {
      const values = new Set(check.values);
      return (value) => values.has(value);
    }
    if ('pattern' in check) {
      const pattern = new RegExp(check.pattern, check.flags);
      return (value) => typeof value === 'string' && pattern.test(value);
    }
    const byName = named[check.named];
    if (byName === undefined) throw new Error(`no quick check is named ${check.named}`);
    return byName;
  };
  const kinds = new Map<unknown, { keys: string[]; checks: ((value: unknown) => boolean)[] }>();
  for (const { kind, keys, checks } of spec.kinds) kinds.set(kind, { keys, checks: checks.map(compile) });
  return (json) => {
    if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
    const record = json as Record<string, unknown>;
    const kind = kinds.get(record.kind);
    if (kind === undefined) return false;
    if (Object.keys(record).length !== kind.keys.length) return false;
    for (let index = 0; index < kind.keys.length; index += 1) {
      if (!kind.checks[index]!(record[kind.keys[index]!])) return false;
    }
    return true;
  };
}
