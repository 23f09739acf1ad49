import { isDeepStrictEqual } from 'node:util';
import { RequestSchema } from '@statecraft/adapter';
import { MAX_RECORD_BYTES } from '../chain/record-bound.js';
import { StoredAttemptResultSchema, type Artifact, type IntentRecord, type OutcomeRecord } from '../chain/record-schemas.js';
import type { ChainEntry } from '../chain/open-chain.js';
import type { AttemptAccount } from './attempt-account.js';
import { attemptRecordsOf, entriesByDigest } from './attempt-records.js';
import { readKeptFile } from './read-kept-file.js';
import type { Finding } from '../doctor/examine-product-home.js';

/** What one side holds of a field: its value, or `absent` when that side holds no such field (never `undefined`, which JSON drops). */
type HeldValue = { value: unknown } | 'absent';

/** One field a record and a kept file both hold, with what each says. */
export interface FieldDisagreement {
  /** The field as the record names it (`result.cost`, `posture.capabilities.degraded`). */
  field: string;
  recorded: HeldValue;
  /** The same field as the kept file names it (`cost`, `capabilities.degraded`). */
  keptField: string;
  kept: HeldValue;
}

/** A record whose copy of what a kept, digest-verified file holds is not what the file holds. */
export interface RecordDisagreement {
  record: 'intent' | 'outcome';
  line: number;
  /** The kept file, as an absolute path. */
  file: string;
  /** Each field that differs; `(the file)` alone when the file is not what it names (not JSON, not a result). */
  fields: FieldDisagreement[];
}

/**
 * What the chain records against the kept files it seals (R8.4), field by field. The digest check
 * says the files are the ones sealed; this says the records still carry what those files carry:
 * an outcome's `result` is the very value its result.json was written from (conclude-attempt.ts),
 * and an intent repeats what its request.json asked (capabilities, deadline, workspace, base,
 * prompt) and what the result recorded of the negotiation (degraded, unverifiable refusals,
 * declared, the adapter). A chain edited and relinked with the files left alone verifies link by
 * link; this is where it shows. Only a file whose digest verifies is compared: an altered or
 * missing one is its own finding. Read-only; synchronous, as check-artifacts.ts is.
 */
export function compareRecordsWithKeptFiles(
  account: AttemptAccount,
  intent: ChainEntry & { record: IntentRecord },
  outcome: (ChainEntry & { record: OutcomeRecord }) | undefined,
): RecordDisagreement[] {
  const found: RecordDisagreement[] = [];
  const request = readSealedJson(account.artifacts.request);
  if (request.kind === 'unparsable') {
    found.push({ record: 'intent', line: intent.lineNumber, file: account.artifacts.request.path, fields: [wholeFile('JSON', request.message)] });
  } else if (request.kind === 'read') {
    const parsed = RequestSchema.safeParse(request.json);
    const fields = parsed.success ? intentAgainstRequest(intent.record, parsed.data) : [wholeFile('a request', parsed.error.message)];
    if (fields.length > 0) found.push({ record: 'intent', line: intent.lineNumber, file: account.artifacts.request.path, fields });
  }
  const resultFile = account.artifacts.result;
  if (outcome === undefined || resultFile === 'not-recorded') return found;
  const result = readSealedJson(resultFile);
  if (result.kind === 'unparsable') {
    found.push({ record: 'outcome', line: outcome.lineNumber, file: resultFile.path, fields: [wholeFile('JSON', result.message)] });
  }
  if (result.kind !== 'read') return found;
  // Read through the schema the record was read through, so defaults fill both alike (an older record's `refusalDigest`).
  const parsed = StoredAttemptResultSchema.safeParse(result.json);
  if (!parsed.success) {
    found.push({ record: 'outcome', line: outcome.lineNumber, file: resultFile.path, fields: [wholeFile('a result', parsed.error.message)] });
    return found;
  }
  const kept = parsed.data;
  const ofOutcome = [...differences('result', outcome.record.result, '', kept), ...sealedStreams(outcome.record, kept)];
  if (ofOutcome.length > 0) found.push({ record: 'outcome', line: outcome.lineNumber, file: resultFile.path, fields: ofOutcome });
  const ofIntent = intentAgainstResult(intent.record, kept);
  if (ofIntent.length > 0) found.push({ record: 'intent', line: intent.lineNumber, file: resultFile.path, fields: ofIntent });
  return found;
}

type KeptRequest = ReturnType<typeof RequestSchema.parse>;
type KeptResult = ReturnType<typeof StoredAttemptResultSchema.parse>;

/** What the intent repeats of the request the adapter was handed (launch-attempt.ts, build-request.ts). */
function intentAgainstRequest(intent: IntentRecord, request: KeptRequest): FieldDisagreement[] {
  const requested = intent.posture.capabilities.requested;
  const pairs: [string, unknown, string, unknown][] = [
    ['runId', intent.runId, 'attempt.runId', request.attempt.runId],
    ['attempt', intent.attempt, 'attempt.number', request.attempt.number],
    ['workspace', intent.workspace, 'workspace', request.workspace],
    ['baseCommit', intent.baseCommit, 'baseRevision', request.baseRevision],
    ['posture.capabilities.requested.required', requested.required, 'capabilities.required', request.capabilities.required],
    ['posture.capabilities.requested.preferred', requested.preferred, 'capabilities.preferred', request.capabilities.preferred],
    ['deadline', intent.deadline, 'deadline', request.deadline],
    ['prompt', intent.prompt, 'prompt', request.prompt],
  ];
  // A request from before the boundary carries none (read as `none`); a posture from before it, `not-recorded`: not compared.
  if (intent.posture.boundary !== 'not-recorded' && request.boundary !== undefined) {
    pairs.push(['posture.boundary.mechanism', intent.posture.boundary.mechanism, 'boundary.mechanism', request.boundary.mechanism]);
  }
  // A request leaves the field out when strict (attempt-request.ts); a posture from before it, `not-recorded`: not compared.
  if (intent.posture.permissions !== 'not-recorded') {
    pairs.push(['posture.permissions.mode', intent.posture.permissions.mode, 'permissions.mode', request.permissions?.mode ?? 'strict']);
  }
  return pairs.flatMap(([field, recorded, keptField, kept]) => differences(field, recorded, keptField, kept));
}

/** What the intent's posture says of the negotiation and the adapter, as the result recorded them (classify.ts). */
function intentAgainstResult(intent: IntentRecord, result: KeptResult): FieldDisagreement[] {
  const capabilities = intent.posture.capabilities;
  const { name, version, digest } = intent.posture.adapter;
  const pairs: [string, unknown, string, unknown][] = [
    ['posture.capabilities.requested.required', capabilities.requested.required, 'capabilities.required', result.capabilities.required],
    ['posture.capabilities.requested.preferred', capabilities.requested.preferred, 'capabilities.preferred', result.capabilities.preferred],
    ['posture.capabilities.declared', capabilities.declared, 'capabilities.declared', result.capabilities.declared],
    ['posture.capabilities.degraded', capabilities.degraded, 'capabilities.degraded', result.capabilities.degraded],
    [
      'posture.capabilities.unverifiableRefusalAccount',
      capabilities.unverifiableRefusalAccount,
      'unverifiableRefusalAccount',
      result.unverifiableRefusalAccount,
    ],
    ['posture.adapter', { name, version, digest }, 'adapter', result.adapter],
  ];
  return pairs.flatMap(([field, recorded, keptField, kept]) => differences(field, recorded, keptField, kept));
}

/** The stream and stderr the outcome seals are the bytes the result read (conclude-attempt.ts `keptEvidence`). */
function sealedStreams(outcome: OutcomeRecord, result: KeptResult): FieldDisagreement[] {
  const digestOf = (artifact: Artifact) => ({ sha256: artifact.sha256, bytes: artifact.bytes });
  const { stream, stderr } = outcome.artifacts;
  return [
    ...(stream === 'not-recorded'
      ? []
      : differences('artifacts.stream', digestOf(stream), 'stdout', { sha256: result.stdout.sha256, bytes: result.stdout.bytes })),
    ...(stderr === 'not-recorded'
      ? []
      : differences('artifacts.stderr', digestOf(stderr), 'stderr', { sha256: result.stderr.sha256, bytes: result.stderr.bytes })),
  ];
}

/**
 * The fields where two JSON values differ, named down to the first level that is not an object
 * on both sides (a list is compared whole). `keptField` empty: the kept value is the whole file.
 */
export function differences(field: string, recorded: unknown, keptField: string, kept: unknown): FieldDisagreement[] {
  if (isPlainObject(recorded) && isPlainObject(kept)) {
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(kept)])];
    return keys.flatMap((key) =>
      differences(`${field}.${key}`, ownMember(recorded, key), keptField === '' ? key : `${keptField}.${key}`, ownMember(kept, key)),
    );
  }
  return isDeepStrictEqual(recorded, kept) ? [] : [{ field, recorded: held(recorded), keptField, kept: held(kept) }];
}

/**
 * What an object holds under `key` itself: `object['__proto__']` of an object without that key is
 * its prototype, and a `{}` recorded there beside a file without it once compared equal.
 */
function ownMember(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

function held(value: unknown): HeldValue {
  return value === undefined ? 'absent' : { value };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function wholeFile(what: string, why: string): FieldDisagreement {
  const said = why.replaceAll(/\s+/g, ' ');
  const kept = `not ${what} (${said.length > 200 ? `${said.slice(0, 197)}...` : said})`;
  return { field: '(the file)', recorded: { value: what }, keptField: '(the file)', kept: { value: kept } };
}

/**
 * A kept file read once: its bytes parsed as JSON only when they have the digest the chain holds.
 * Bytes past the recorded length are hashed, never kept (the digest then differs anyway), and a
 * recorded length beyond a record's bound is not read for its content: no file a record copies is larger.
 */
export function readSealedJson(
  artifact: Pick<Artifact, 'path' | 'sha256' | 'bytes'> | 'not-recorded',
): { kind: 'read'; json: unknown } | { kind: 'unparsable'; message: string } | { kind: 'not-sealed' } {
  if (artifact === 'not-recorded' || artifact.bytes > MAX_RECORD_BYTES) return { kind: 'not-sealed' };
  const chunks: Buffer[] = [];
  let held = 0;
  const reading = readKeptFile(artifact.path, (chunk) => {
    if (held + chunk.length <= artifact.bytes) chunks.push(chunk);
    held += chunk.length;
  });
  if (reading.kind !== 'read' || reading.sha256 !== artifact.sha256 || reading.bytes !== artifact.bytes) return { kind: 'not-sealed' };
  try {
    return { kind: 'read', json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch (error) {
    return { kind: 'unparsable', message: (error as Error).message };
  }
}

/**
 * One attempt's records against its kept files, the records found in the chain by the digests its
 * account holds: what `doctor` reports of each attempt and `run show` of the one it shows, so the
 * two never compare differently. No intent record found: nothing to compare.
 */
export function compareAttemptRecordsWithKeptFiles(account: AttemptAccount, byDigest: ReadonlyMap<string, ChainEntry>): RecordDisagreement[] {
  const records = attemptRecordsOf(account, byDigest);
  return records === undefined ? [] : compareRecordsWithKeptFiles(account, records.intent, records.outcome);
}

/** Every attempt's records against its kept files, for `doctor`: one finding per record and file that disagree, in chain order. */
export function examineRecordsAgainstKeptFiles(accounts: readonly AttemptAccount[], entries: readonly ChainEntry[]): Finding[] {
  const byDigest = entriesByDigest(entries);
  return accounts.flatMap((account) => compareAttemptRecordsWithKeptFiles(account, byDigest).map((found) => describeRecordDisagreement(account, found)));
}

/** `cost: 0 in the record, "unknown" in the file`: a value shown short enough to read in a line. */
function shown(side: HeldValue): string {
  const text = side === 'absent' ? 'absent' : JSON.stringify(side.value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** Each field of one disagreement in a line's words, as `doctor` and `run show` say it; `where` the kept side was read (the file, the stream). */
export function describeFieldDisagreements(fields: readonly FieldDisagreement[], where = 'the file'): string {
  return fields
    .map((field) =>
      field.field === '(the file)' && field.kept !== 'absent'
        ? `the file is ${String(field.kept.value)}`
        : `${field.field} is ${shown(field.recorded)} in the record, ${field.keptField} is ${shown(field.kept)} in ${where}`,
    )
    .join('; ');
}

/** The finding `doctor` makes of one disagreement: the record (line, run, attempt), the file, each field. */
function describeRecordDisagreement(account: AttemptAccount, disagreement: RecordDisagreement): Finding {
  const { record, line, file, fields } = disagreement;
  return {
    kind: 'record-disagrees-with-kept-file',
    path: file,
    message: `run ${account.runId} attempt ${account.attempt}: the ${record} record (${account.records.chain} line ${line}) disagrees with the kept ${file} (digest verified): ${describeFieldDisagreements(fields)}; the record was rewritten after the attempt`,
  };
}
