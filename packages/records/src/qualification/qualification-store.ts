import { readdir } from 'node:fs/promises';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import { makeDirectories } from '@statecraft/adapter';
import { writeFileDurably } from '../durable-write.js';
import { wordsAfterPath } from '@statecraft/adapter';
import { readRegularFile } from '@statecraft/adapter';
import { describeSchemaIssues } from '@statecraft/adapter';
import type { SuiteReport } from '@statecraft/adapter';
import { SUITE_CASES, SUITE_VERSION } from '@statecraft/adapter';
import { QualificationIdSchema, QualificationRecordSchema, type Platform, type QualificationRecord } from './qualification-record.js';
import { signStatement } from '../signing/sign-statement.js';
import { signedBundlePath } from '../signing/signed-bundle-path.js';
import { qualificationStatement } from '../signing/signed-statement.js';
import type { SigningKey } from '../signing/signing-key.js';
import { parseBoundedJson } from '../bounded-json.js';

/**
 * Qualification records in the product home: `<home>/qualifications/<id>.json` (R3.1, R8.4). The
 * home is a parameter: resolving `$STATECRAFT_HOME` is the caller's business, so this module
 * depends on no other package. A missing home is an empty home.
 */
export function qualificationsDir(home: string): string {
  return join(home, 'qualifications');
}

export function thisPlatform(): Platform {
  return { os: platform(), arch: arch(), node: process.version };
}

export type WriteQualificationAnswer =
  | { kind: 'written'; record: QualificationRecord; path: string; signature?: { path: string; keyId: string } }
  | { kind: 'refused'; reason: 'not-passed'; message: string };

/**
 * Writes the record of a full pass; anything less is not a qualification and writes nothing. With
 * a signing key, its signature is written beside it (`<id>.sigstore.json`), once, like the record.
 */
export async function writeQualificationRecord(home: string, report: SuiteReport, signingKey?: SigningKey): Promise<WriteQualificationAnswer> {
  const notPassing = report.cases.filter((entry) => entry.status !== 'pass');
  const absent = SUITE_CASES.filter((entry) => !report.cases.some((ran) => ran.row === entry.row)).map((entry) => `row ${entry.row} absent`);
  if (!report.passed || notPassing.length > 0 || absent.length > 0 || report.suiteVersion !== SUITE_VERSION) {
    return {
      kind: 'refused',
      reason: 'not-passed',
      message: `not a full pass of ${SUITE_VERSION} (${[...notPassing.map((entry) => `row ${entry.row} ${entry.status}`), ...absent].join(', ') || `suite ${report.suiteVersion}`}); no record written`,
    };
  }
  const dir = qualificationsDir(home);
  makeDirectories(dir, 0o755);
  // Ids name the second a suite ended: two passes of one binary ending in the same second (two
  // qualifies at once) take the next free suffix, rather than one losing its pass to the other.
  for (let copy = 1; ; copy += 1) {
    const id = copy === 1 ? recordId(report) : `${recordId(report)}-${copy}`;
    const record: QualificationRecord = QualificationRecordSchema.parse({
      kind: 'statecraft-qualification',
      recordVersion: 1,
      id,
      adapter: report.adapter,
      provider: report.provider,
      suiteVersion: report.suiteVersion,
      protocol: report.protocol,
      platform: thisPlatform(),
      date: report.endedAt,
      driver: report.driver,
      boundary: report.boundary,
      cases: report.cases,
    });
    const path = join(dir, `${record.id}.json`);
    try {
      // Atomic and never rewritten: a record is written once, readable by anyone who checks a binary.
      await writeFileDurably(path, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o644, exclusive: true });
      if (signingKey === undefined) return { kind: 'written', record, path };
      const signature = signedBundlePath(path);
      const bundle = await signStatement(signingKey, qualificationStatement(record));
      await writeFileDurably(signature, `${JSON.stringify(bundle, null, 2)}\n`, { mode: 0o644, exclusive: true }).catch((error: unknown) => {
        throw Object.assign(new Error(`${signature}: cannot write the qualification record's signature (${(error as Error).message})`, { cause: error }), {
          path: signature,
        });
      });
      return { kind: 'written', record, path, signature: { path: signature, keyId: signingKey.keyId } };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && copy < 100) continue;
      // A write to a descriptor fails with the system's words only: the record's file is named here.
      throw Object.assign(new Error(`${path}: cannot write the qualification record (${(error as Error).message})`, { cause: error }), { path });
    }
  }
}

/** `<name>-<version>-<digest prefix>-<yyyymmddThhmmssZ>`: unique per binary and moment, readable. */
function recordId(report: SuiteReport): string {
  const digest = report.adapter.digest.replace(/^sha256:/, '').slice(0, 12);
  const when = report.endedAt
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
    .toLowerCase();
  return `${report.adapter.name}-${report.adapter.version}-${digest}-${when}`.replace(/[^a-z0-9.+-]/g, '-');
}

export interface StoredRecord {
  id: string;
  path: string;
  record: QualificationRecord;
  /** The record as its file holds it (before defaults are filled in): what a signature is checked against. */
  json: unknown;
}

export interface UnreadableRecord {
  path: string;
  message: string;
}

/** Every record, oldest first by date; a file that is not a valid record is reported, not skipped silently. */
export async function listQualificationRecords(home: string): Promise<{ records: StoredRecord[]; unreadable: UnreadableRecord[] }> {
  const dir = qualificationsDir(home);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], unreadable: [] };
    throw new Error(`${dir}: cannot list qualification records`, { cause: error });
  }
  const records: StoredRecord[] = [];
  const unreadable: UnreadableRecord[] = [];
  // A record's signature (`<id>.sigstore.json`) is kept beside it and read with it, not as a record.
  for (const name of names.filter((entry) => entry.endsWith('.json') && !entry.endsWith('.sigstore.json')).sort()) {
    const reading = await readRecordFile(join(dir, name));
    if (reading.kind === 'found') records.push({ id: reading.record.id, path: reading.path, record: reading.record, json: reading.json });
    else unreadable.push({ path: reading.path, message: reading.message });
  }
  records.sort((left, right) => left.record.date.localeCompare(right.record.date) || left.id.localeCompare(right.id));
  return { records, unreadable };
}

export type ShowQualificationAnswer =
  | { kind: 'found'; record: QualificationRecord; path: string; json: unknown }
  | { kind: 'not-found'; path: string; message: string }
  | { kind: 'invalid'; path: string; message: string };

/** One record by id. */
export async function showQualificationRecord(home: string, id: string): Promise<ShowQualificationAnswer> {
  const parsedId = QualificationIdSchema.safeParse(id);
  const path = join(qualificationsDir(home), `${id}.json`);
  if (!parsedId.success)
    return { kind: 'invalid', path, message: `"${id}" is not a qualification record id (${parsedId.error.issues[0]?.message ?? 'invalid'})` };
  return readRecordFile(path);
}

/** A qualification record is tens of kilobytes; a file over this at its path is not one. */
const QUALIFICATION_RECORD_BOUND_BYTES = 16 * 1024 * 1024;

async function readRecordFile(path: string): Promise<ShowQualificationAnswer> {
  let text: string;
  try {
    text = await readRegularFile(path, QUALIFICATION_RECORD_BOUND_BYTES);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'not-found', path, message: `${path}: no such qualification record` };
    const said = wordsAfterPath(error, path) ?? code ?? String(error);
    return { kind: 'invalid', path, message: `${path}: cannot read (${said})` };
  }
  let json: unknown;
  try {
    json = parseBoundedJson(text);
  } catch (error) {
    return { kind: 'invalid', path, message: `${path}: not JSON (${(error as Error).message})` };
  }
  const parsed = QualificationRecordSchema.safeParse(json);
  if (!parsed.success) return { kind: 'invalid', path, message: describeSchemaIssues(path, parsed.error) };
  return { kind: 'found', record: parsed.data, path, json };
}
