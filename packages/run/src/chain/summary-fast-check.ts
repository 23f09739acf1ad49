import { z } from 'zod';

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
  const kinds = new Map<unknown, { keys: string[]; checks: ((value: unknown) => boolean)[] } | 'schema'>();
  for (const option of schema.options) {
    const shape = option.shape as Record<string, z.ZodType>;
    const keys = Object.keys(shape);
    const checks = keys.map((key) => checkFor(key, shape[key]));
    const kind = shape.kind;
    if (!(kind instanceof z.ZodLiteral)) continue;
    kinds.set(kind.value, checks.every((check) => check !== undefined) ? { keys, checks } : 'schema');
  }
  return (json) => {
    if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
    const record = json as Record<string, unknown>;
    const kind = kinds.get(record.kind);
    if (kind === undefined || kind === 'schema') return false;
    if (Object.keys(record).length !== kind.keys.length) return false;
    for (let index = 0; index < kind.keys.length; index += 1) {
      if (!kind.checks[index]!(record[kind.keys[index]!])) return false;
    }
    return true;
  };
}

const DIGEST = /^[0-9a-f]{64}$/;

const isDigest = (value: unknown) => typeof value === 'string' && DIGEST.test(value);
const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
const isNonEmptyString = (value: unknown) => typeof value === 'string' && value.length > 0;

/** Checks by field name, each as strict as the schema's field (or stricter). */
const FIELD_CHECKS: Record<string, (value: unknown) => boolean> = {
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

/** A field's check: an enum's or literal's values read from the schema, else the named check. */
function checkFor(key: string, field: z.ZodType | undefined): ((value: unknown) => boolean) | undefined {
  if (field instanceof z.ZodEnum) {
    const values = new Set<unknown>(field.options);
    return (value) => values.has(value);
  }
  // The schema's own pattern: a datetime format checks nothing else (no offset, any precision).
  if (field instanceof z.ZodISODateTime && field.def.pattern !== undefined && (field.def.checks ?? []).length === 0) {
    const pattern = field.def.pattern;
    return (value) => typeof value === 'string' && pattern.test(value);
  }
  if (field instanceof z.ZodLiteral) {
    const values = new Set<unknown>(field.values);
    return (value) => values.has(value);
  }
  return FIELD_CHECKS[key];
}
