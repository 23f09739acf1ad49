import * as z from 'zod';

/**
 * The schema pieces every record, result and answer shares, defined once and composed (decision
 * 0047): a copy of a regex in two files is two definitions that can drift apart, and a reader
 * and a writer that disagree about a digest refuse each other's records.
 */

/** A sha256 as bare lower-case hex: the form chain links, kept files and stream digests use. */
export const Sha256HexSchema = z.string().regex(/^[0-9a-f]{64}$/, { message: 'must be 64 lower-case hex digits (a sha256)' });

/** A content digest naming its algorithm, `sha256:<hex>`: the form identities and specs use. */
export const Sha256DigestSchema = z.string().regex(/^sha256:[0-9a-f]{64}$/, { message: 'must be "sha256:" and 64 lower-case hex digits' });

/** A git commit id: 40 hex digits (SHA-1 repositories) or 64 (SHA-256 repositories). */
export const CommitIdSchema = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, { message: 'must be a git commit id (40 or 64 hex digits)' });

/** How many of something: lines, events, bytes, refusals. */
export const CountSchema = z.int().nonnegative();

/** A point in time as a record holds it: ISO 8601 in UTC (`new Date().toISOString()`). */
export const RecordTimeSchema = z.iso.datetime();

/** A duration in milliseconds, as measured (fractions kept). */
export const DurationMsSchema = z.number().nonnegative();

/** Bytes and their sha256: a kept stream, a prompt, a file, the refusal lines of a stream. */
export const SizedDigestSchema = z.strictObject({
  sha256: Sha256HexSchema,
  bytes: CountSchema,
});

/** An attempt's cost as recorded: dollars, or `unknown` — never zero for a cost nobody reported (R4 row 5). */
export const RecordedCostSchema = z.union([z.number().nonnegative(), z.literal('unknown')]);

/** Whether a qualification record vouches for this adapter (and provider) binary (R3.2, R3.3). */
export const QualificationVerdictSchema = z.enum(['qualified', 'unqualified']);

/** What the stream reader counted of an attempt's trusted prefix (R7.4). */
export const EventCountsSchema = z.strictObject({
  /** Events of the trusted prefix, the init included. */
  count: CountSchema,
  progress: CountSchema,
  toolUses: CountSchema,
  /** Lines after the terminal event: drained, not interpreted (R7.4). */
  linesAfterTerminal: CountSchema,
});
export type EventCounts = z.infer<typeof EventCountsSchema>;

/**
 * A JSON object an adapter wrote, checked to be one and kept as the very object parsed, never
 * copied key by key: zod's record and object schemas copy, and leave out a `__proto__` key (which
 * JSON.parse makes an ordinary own key), so a claim's detail once read `{"a":1}` in the record
 * where the kept stream said `{"__proto__":{…},"a":1}` (R8.2: the claim kept as the provider made it).
 * Its values are any JSON and are not copied either. Published as the record schema it replaces.
 */
export const VerbatimObjectSchema = z
  .custom<Record<string, unknown>>(isPlainObject, { error: 'expected an object' })
  .meta({ type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} });

function isPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
