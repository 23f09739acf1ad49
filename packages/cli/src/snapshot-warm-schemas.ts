/**
 * Run only while the start-up snapshot is built (main.ts): zod computes part of every schema on its
 * first parse, not at construction — an object's normalised shape, a discriminated union's map of
 * kinds, each part's optionality and literal values — and keeps it on the schema. Computed here,
 * it is kept in the snapshot, so a start does not pay it on the hot path: the intent's validation
 * before it is appended (issue 10 item 3) took ~5 ms cold and ~3 ms from a warmed snapshot
 * (docs/decisions.md, 2026-12-01). What is warmed are the schemas statecraft's own verbs parse at
 * run time, with inputs no record has (`{}`, `[]`): statecraft's refinements and transforms only
 * read their input, so nothing but the schemas' own caches is changed.
 *
 * It reads zod's internal `_zod.def` to find each schema's parts; should zod change it, fewer parts
 * are warmed and nothing else differs — each parse still computes what it needs, as before.
 */
import { EventSchema, KnownDigestSchema, ManifestSchema, ProbeCheckSchema, RecordedCoverageSchema, RequestSchema } from '@statecraft/adapter';
import { QualificationRecordSchema } from '@statecraft/records';
import { ProjectDeclarationSchema } from '@statecraft/environment';
import { ChainCheckpointSchema, ChainRecordSchema, ChainSummarySchema, LockHolderSchema } from '@statecraft/records';

/** The schemas the verbs parse at run time: records, the protocol's documents, the product home's small files. */
const PARSED_AT_RUN_TIME: readonly unknown[] = [
  ChainRecordSchema,
  ChainCheckpointSchema,
  ChainSummarySchema,
  LockHolderSchema,
  ManifestSchema,
  RequestSchema,
  EventSchema,
  ProbeCheckSchema,
  RecordedCoverageSchema,
  QualificationRecordSchema,
  KnownDigestSchema,
  ProjectDeclarationSchema,
];

/** What zod computes lazily on each schema's internals, read once so it is computed now. */
const LAZY_PROPERTIES = ['optin', 'optout', 'values', 'propValues', 'pattern'] as const;

interface ZodLike {
  _zod: { def: unknown } & Record<string, unknown>;
  safeParse: (input: unknown) => unknown;
}

function isSchema(value: unknown): value is ZodLike {
  return typeof value === 'object' && value !== null && '_zod' in value && typeof (value as { safeParse?: unknown }).safeParse === 'function';
}

/** Warms every schema reachable from the run-time roots; answers how many were warmed. */
export function warmSchemasForSnapshot(roots: readonly unknown[] = PARSED_AT_RUN_TIME): number {
  const seen = new Set<ZodLike>();
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    if (isSchema(value)) {
      warm(value);
      return;
    }
    if (Array.isArray(value)) {
      for (const each of value) visit(each);
      return;
    }
    // A plain object in a definition is an object schema's shape: its values are schemas.
    if (Object.getPrototypeOf(value) === Object.prototype) for (const each of Object.values(value)) visit(each);
  };
  const warm = (schema: ZodLike): void => {
    if (seen.has(schema)) return;
    seen.add(schema);
    for (const property of LAZY_PROPERTIES) {
      try {
        void schema._zod[property];
      } catch {
        // Not computable for this schema alone (a recursive one mid-definition): left to its first parse.
      }
    }
    // An object's shape is normalised, and a union's map of kinds built, on their first parse of an
    // object. A refinement may still be handed such an input, and throw on it: that is no matter here.
    for (const input of [{}, []]) {
      try {
        schema.safeParse(input);
      } catch {
        // The parts computed before the throw are kept; the rest are computed on a first real parse.
      }
    }
    visit(schema._zod.def);
  };
  for (const root of roots) visit(root);
  return seen.size;
}
