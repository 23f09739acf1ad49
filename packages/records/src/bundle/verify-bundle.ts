import { createHash } from 'node:crypto';
import { attemptArtifactNames } from '../attempt-files.js';
import type { AcceptanceRecord } from '../chain/acceptance-record.js';
import { ChainRecordSchema, type Artifact, type ChainRecord, type IntentRecord, type OutcomeRecord } from '../chain/record-schemas.js';
import { QualificationRecordSchema } from '../qualification/qualification-record.js';
import { describeClassification, reclassifyAttempt, recordedStop } from '../read/reclassify-attempt.js';
import { differences } from '../read/records-against-kept-files.js';
import { acceptanceKeptFiles } from '../read/own-evidence-paths.js';
import { ReceiptSchema } from '../receipt.js';
import { MANIFEST_PATH, type BundleManifest } from './bundle-manifest.js';
import { ANCHORS_PATH, RECORDS_PATH } from './collect-bundle.js';
import type { BundleReading, FoundFile } from './read-bundle.js';
import { verifyGitBundle } from './verify-git-bundle.js';
import { parseBoundedJson } from '../bounded-json.js';

/** What a verification looks at, one word each, in the order it is told. */
export type BundleCheckName = 'files' | 'links' | 'outcome' | 'receipt' | 'qualification' | 'signatures' | 'candidate';

/** Something in the bundle that does not hold: the file, and the field or line where it does not. */
export interface BundleFinding {
  check: BundleCheckName;
  file: string;
  /** The field, or `line N` of a file of lines; absent when the whole file is meant. */
  field?: string;
  message: string;
}

/** The most findings a verification lists: past it they are counted, and one more finding says how many were left out. */
const FINDINGS_BOUND = 200;

/**
 * The findings of a verification, held to FINDINGS_BOUND whatever the bundle: a crafted file of a
 * million bad lines is a million findings, and neither the verifier's memory nor its answer may
 * grow with them. `count` is every finding, listed or not.
 */
export class FindingList {
  private readonly listed: BundleFinding[] = [];
  private omitted = 0;
  private firstOmitted: BundleFinding | undefined;

  get count(): number {
    return this.listed.length + this.omitted;
  }

  add(finding: BundleFinding): void {
    if (this.listed.length < FINDINGS_BOUND) this.listed.push(finding);
    else {
      this.omitted += 1;
      this.firstOmitted ??= finding;
    }
  }

  /** The findings listed, then, when some were left out, one that says how many and where the first of them was. */
  list(): BundleFinding[] {
    const first = this.firstOmitted;
    if (first === undefined) return [...this.listed];
    return [
      ...this.listed,
      {
        check: first.check,
        file: first.file,
        message: `and ${this.omitted} more finding${this.omitted === 1 ? '' : 's'}, not listed (the first ${FINDINGS_BOUND} are; this file is where the first left out was)`,
      },
    ];
  }
}

/** What a check found holding, said in a sentence. */
export interface BundleHold {
  check: BundleCheckName;
  message: string;
}

export interface BundleVerification {
  runId: string;
  target: BundleManifest['target'];
  holds: BundleHold[];
  findings: BundleFinding[];
}

interface Line {
  /** 1-based, in its file. */
  number: number;
  digest: string;
  record: ChainRecord;
}

type Read = Extract<BundleReading, { kind: 'read' }>;

/**
 * Verifies a bundle that was read (read-bundle.ts) with nothing but its own bytes (decision 0282):
 * every file against the manifest's digest, the run's records against each other and against the
 * lines that anchor them, each kept file against the digest its record holds, the outcome against
 * the kept stream classified again by the supervisor's own classifier, and each receipt against the
 * record that carries it. Signatures are the caller's (they need the trusted keys).
 */
export function verifyBundleContents(bundle: Read): BundleVerification {
  const found = new FindingList();
  const holds: BundleHold[] = [];
  const finding = (check: BundleCheckName, file: string, message: string, field?: string): void => {
    found.add({ check, file, message, ...(field === undefined ? {} : { field }) });
  };
  const before = found.count;
  checkFiles(bundle, finding);
  if (found.count === before) holds.push({ check: 'files', message: `every file's digest matches the manifest (${bundle.manifest.files.length} files)` });

  const lines = readLines(bundle, RECORDS_PATH, finding);
  const beforeLinks = found.count;
  checkLinks(bundle, lines, finding);
  if (found.count === beforeLinks && lines.length > 0)
    holds.push({ check: 'links', message: `the run's ${lines.length} records link to the records before them` });

  const beforeOutcome = found.count;
  let classified = 0;
  for (const intent of lines.filter((line) => line.record.kind === 'intent')) classified += checkAttempt(bundle, lines, intent, finding);
  if (found.count === beforeOutcome && classified > 0)
    holds.push({ check: 'outcome', message: 'the kept files are the recorded ones; the stream classifies as recorded' });

  const beforeReceipt = found.count;
  let receipts = 0;
  for (const line of lines) if (line.record.kind === 'acceptance') receipts += checkAcceptance(bundle, lines, line, line.record, finding);
  if (found.count === beforeReceipt && receipts > 0) holds.push({ check: 'receipt', message: "the receipt's checks and candidate agree with the records" });

  checkEveryFileNamed(bundle, lines, finding);

  const beforeQualification = found.count;
  const qualifications = checkQualifications(bundle, lines, finding);
  if (found.count === beforeQualification && qualifications > 0)
    holds.push({ check: 'qualification', message: `the qualification records name the adapter the run used (${qualifications})` });
  const git = verifyGitBundle(
    bundle,
    lines.map((line) => line.record),
  );
  holds.push(...git.holds);
  for (const gitFinding of git.findings) found.add(gitFinding);
  return { runId: bundle.manifest.runId, target: bundle.manifest.target, holds, findings: found.list() };
}

type Report = (check: BundleCheckName, file: string, message: string, field?: string) => void;

function checkFiles(bundle: Read, finding: Report): void {
  if (!bundle.manifestCanonical) finding('files', MANIFEST_PATH, 'is not in the one form statecraft writes it: it was changed after the export');
  const listed = new Set<string>();
  for (const file of bundle.manifest.files) {
    if (listed.has(file.path)) finding('files', MANIFEST_PATH, `lists ${file.path} twice`, 'files');
    listed.add(file.path);
    const kept = bundle.files.get(file.path);
    if (kept === undefined) {
      // One left unread (a directory's file of another size than listed) is named by its own finding.
      if (!bundle.notKept.some((unread) => unread.path === file.path)) finding('files', file.path, 'is listed in the manifest and missing from the bundle');
    } else if (kept.sha256 !== file.sha256 || kept.bytes !== file.bytes)
      finding(
        'files',
        file.path,
        `its sha256 ${short(kept.sha256)} (${kept.bytes} bytes) is not the one ${MANIFEST_PATH} holds (${short(file.sha256)}, ${file.bytes} bytes)`,
        'sha256',
      );
  }
  for (const path of bundle.unlisted) finding('files', path, 'is in the bundle and not in its manifest');
  if (bundle.unlistedCount > bundle.unlisted.length)
    finding('files', MANIFEST_PATH, `and ${bundle.unlistedCount - bundle.unlisted.length} more files of the bundle are not in it`, 'files');
  for (const path of bundle.notRegular) finding('files', path, 'is not a regular file');
  if (bundle.notRegularCount > bundle.notRegular.length)
    finding('files', MANIFEST_PATH, `and ${bundle.notRegularCount - bundle.notRegular.length} more entries of the bundle are not regular files`);
  for (const { path, why } of bundle.notKept) finding('files', path, why);
  for (const { path, why } of bundle.strayMembers) finding('files', path, why);
}

/** The records of a file of chain lines, each parsed as the chain's reader parses it; a line that is not one is a finding. */
function readLines(bundle: Read, path: string, finding: Report): Line[] {
  const content = bundle.files.get(path)?.content;
  if (content === undefined) {
    finding('links', path, 'is missing or too large to hold records');
    return [];
  }
  if (content.length > 0 && content[content.length - 1] !== NEWLINE) finding('links', path, 'its last line has no newline: it was cut');
  const lines: Line[] = [];
  let bad = 0;
  for (const { number, line } of linesOf(content)) {
    // Past the bound, one more finding says the rest was not read: a file of a million bad lines is not a million findings.
    if (bad === FINDINGS_BOUND) {
      finding('links', path, `the lines after these ${FINDINGS_BOUND} that are not records were not read`, `line ${number}`);
      break;
    }
    let json: unknown;
    try {
      json = parseBoundedJson(line);
    } catch {
      bad += 1;
      finding('links', path, 'is not JSON', `line ${number}`);
      continue;
    }
    const parsed = ChainRecordSchema.safeParse(json);
    if (!parsed.success) {
      bad += 1;
      const issue = parsed.error.issues[0];
      finding('links', path, `is not a chain record (${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''})`, `line ${number}`);
      continue;
    }
    lines.push({ number, digest: createHash('sha256').update(line).digest('hex'), record: parsed.data });
  }
  return lines;
}

/** Each record's `prev` is the digest of the line before it in the chain: one of the run's, or an anchor. */
function checkLinks(bundle: Read, lines: readonly Line[], finding: Report): void {
  const bySeq = new Map<number, string>();
  const wanted = new Set([bundle.manifest.chainTip.seq, ...lines.map((line) => line.record.seq - 1)]);
  for (const anchor of anchorDigests(bundle, wanted, finding)) bySeq.set(anchor.seq, anchor.digest);
  let previous: Line | undefined;
  for (const line of lines) {
    const { record } = line;
    if (record.kind === 'intent' && (record.target.path !== bundle.manifest.target.path || record.target.key !== bundle.manifest.target.key))
      finding('links', MANIFEST_PATH, `names another target than the record at ${RECORDS_PATH} line ${line.number}`, 'target');
    if ('runId' in record && record.runId !== bundle.manifest.runId)
      finding('links', RECORDS_PATH, `is a record of run ${record.runId}, not of ${bundle.manifest.runId}`, `line ${line.number} runId`);
    if (previous !== undefined && record.seq <= previous.record.seq)
      finding('links', RECORDS_PATH, `seq ${record.seq} follows seq ${previous.record.seq}: the records are out of chain order`, `line ${line.number} seq`);
    bySeq.set(record.seq, line.digest);
    previous = line;
  }
  for (const line of lines) {
    const { record } = line;
    const field = `line ${line.number} prev`;
    if (record.seq === 0) {
      if (record.prev !== 'genesis') finding('links', RECORDS_PATH, "the chain's first record must link to genesis", field);
      continue;
    }
    const before = bySeq.get(record.seq - 1);
    if (before === undefined) finding('links', RECORDS_PATH, `the record before seq ${record.seq} is not in the bundle: a record was removed`, field);
    else if (before !== record.prev)
      finding('links', RECORDS_PATH, `does not match the digest of the record before it (seq ${record.seq - 1}): a link is broken`, field);
  }
  const tip = bundle.manifest.chainTip;
  const last = lines.at(-1);
  if (last !== undefined && last.record.seq > tip.seq)
    finding('links', MANIFEST_PATH, `the chain's tip (seq ${tip.seq}) is before the run's last record`, 'chainTip');
  const atTip = bySeq.get(tip.seq);
  if (atTip !== undefined && atTip !== tip.digest)
    finding('links', MANIFEST_PATH, `the record at seq ${tip.seq} is not the chain's tip it names`, 'chainTip.digest');
}

/** The anchors' seqs and digests, of the seqs wanted alone: each a whole chain line, read for its seq alone. */
function anchorDigests(bundle: Read, wanted: ReadonlySet<number>, finding: Report): { seq: number; digest: string }[] {
  const content = bundle.files.get(ANCHORS_PATH)?.content;
  if (content === undefined) return [];
  const found: { seq: number; digest: string }[] = [];
  let bad = 0;
  for (const { number, line, ended } of linesOf(content)) {
    if (!ended) break;
    try {
      const seq: unknown = (parseBoundedJson(line) as { seq?: unknown } | null)?.seq;
      if (typeof seq === 'number' && Number.isInteger(seq)) {
        if (wanted.has(seq)) found.push({ seq, digest: createHash('sha256').update(line).digest('hex') });
        continue;
      }
    } catch {
      // named below
    }
    if (bad === FINDINGS_BOUND) {
      finding('links', ANCHORS_PATH, `the lines after these ${FINDINGS_BOUND} that are not chain records were not read`, `line ${number}`);
      break;
    }
    bad += 1;
    finding('links', ANCHORS_PATH, 'is not a chain record', `line ${number}`);
  }
  return found;
}

const NEWLINE = 0x0a;

/** The lines of a held file, one at a time (never all at once: a file of millions of short lines must not become millions of strings), each 1-based; `ended` when a newline follows it. */
function* linesOf(content: Buffer): Generator<{ number: number; line: string; ended: boolean }> {
  let start = 0;
  let number = 0;
  while (start < content.length) {
    const end = content.indexOf(NEWLINE, start);
    number += 1;
    if (end < 0) {
      yield { number, line: content.toString('utf8', start), ended: false };
      return;
    }
    yield { number, line: content.toString('utf8', start, end), ended: true };
    start = end + 1;
  }
}

/** One attempt: its outcome names its intent, its kept files are the ones recorded, and the stream classifies as recorded. Returns 1 when classified. */
function checkAttempt(bundle: Read, lines: readonly Line[], intentLine: Line, finding: Report): number {
  const intent = intentLine.record as IntentRecord;
  const names = attemptArtifactNames(intent.runId, intent.attempt);
  const at = (line: Line, name: string): string => `line ${line.number} ${name}`;
  checkArtifact(bundle, names.request, intent.artifacts.request, at(intentLine, 'artifacts.request'), finding);
  checkArtifact(bundle, names.prompt, intent.artifacts.prompt, at(intentLine, 'artifacts.prompt'), finding);
  const outcomeLine = lines.find((line) => line.record.kind === 'outcome' && line.record.runId === intent.runId && line.record.attempt === intent.attempt);
  if (outcomeLine === undefined) {
    finding('outcome', RECORDS_PATH, `attempt ${intent.attempt} has no outcome in the bundle`);
    return 0;
  }
  const outcome = outcomeLine.record as OutcomeRecord;
  if (outcome.intent !== intentLine.digest) finding('links', RECORDS_PATH, "is not the digest of its attempt's intent", at(outcomeLine, 'intent'));
  const streamOk =
    outcome.artifacts.stream !== 'not-recorded' && checkArtifact(bundle, names.stream, outcome.artifacts.stream, at(outcomeLine, 'artifacts.stream'), finding);
  if (outcome.artifacts.stderr !== 'not-recorded') checkArtifact(bundle, names.stderr, outcome.artifacts.stderr, at(outcomeLine, 'artifacts.stderr'), finding);
  checkArtifact(bundle, names.result, outcome.artifacts.result, at(outcomeLine, 'artifacts.result'), finding);
  const reader = bundle.files.get(names.stream)?.reader;
  if (!streamOk || reader === undefined) return 0;
  // A stop (deadline, interrupt) ended the supervisor's reading before the pipe's end; the reading again stops there too.
  if (recordedStop(outcome.result) === 'none') reader.end();
  const check = reclassifyAttempt(outcome.result, reader.reading());
  if (check.state === 'disagrees') {
    const fields = check.fields.map((field) => field.field).join(', ');
    finding(
      'outcome',
      RECORDS_PATH,
      `records ${describeClassification(check.recorded)}; the kept stream classifies as ${describeClassification(check.fromStream)}${fields === '' ? '' : ` (fields: ${fields})`}`,
      at(outcomeLine, 'outcome'),
    );
  }
  return 1;
}

/** A kept file where its attempt keeps it, with the digest its record holds. */
function checkArtifact(bundle: Read, path: string, recorded: Artifact, field: string, finding: Report): boolean {
  if (recorded.path !== path) {
    finding('outcome', RECORDS_PATH, `names ${recorded.path}, not ${path} where its attempt keeps it`, `${field}.path`);
    return false;
  }
  return checkDigest(bundle, path, recorded, field, finding);
}

function checkDigest(
  bundle: Read,
  path: string,
  recorded: { sha256: string; bytes: number },
  field: string,
  finding: Report,
  check: BundleCheckName = 'outcome',
): boolean {
  const kept: FoundFile | undefined = bundle.files.get(path);
  if (kept === undefined) {
    finding(check, path, `is missing (the record at ${RECORDS_PATH} ${field} names it)`);
    return false;
  }
  if (kept.sha256 === recorded.sha256 && kept.bytes === recorded.bytes) return true;
  finding(check, path, `its sha256 ${short(kept.sha256)} is not the one ${RECORDS_PATH} ${field} holds (${short(recorded.sha256)})`, 'sha256');
  return false;
}

/** A judgement: it names its attempt's outcome, its check outputs are the recorded ones, and its receipt is what the records say. Returns 1 for a receipt checked. */
function checkAcceptance(bundle: Read, lines: readonly Line[], line: Line, record: AcceptanceRecord, finding: Report): number {
  const of = (kind: 'intent' | 'outcome'): Line | undefined =>
    lines.find((other) => other.record.kind === kind && other.record.runId === record.runId && other.record.attempt === record.attempt);
  const outcome = of('outcome');
  const intent = of('intent');
  if (outcome !== undefined && record.outcome !== outcome.digest)
    finding('links', RECORDS_PATH, "is not the digest of the judged attempt's outcome", `line ${line.number} outcome`);
  for (const [file, output] of acceptanceKeptFiles(record)) checkDigest(bundle, output.path, output, `line ${line.number} ${file}`, finding, 'receipt');
  if (record.receipt === 'none' || record.receiptFile === 'none') return 0;
  const path = record.receiptFile.path;
  const content = bundle.files.get(path)?.content;
  if (content === undefined) return 1;
  let json: unknown;
  try {
    json = parseBoundedJson(content.toString('utf8'));
  } catch {
    finding('receipt', path, 'is not JSON');
    return 1;
  }
  const parsed = ReceiptSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    finding('receipt', path, `is not a receipt (${issue?.message ?? ''})`, issue?.path.join('.'));
    return 1;
  }
  const receipt = parsed.data;
  for (const difference of differences('receipt', record.receipt, '', receipt))
    finding('receipt', path, `differs from the acceptance record at ${RECORDS_PATH} line ${line.number}`, difference.keptField);
  if (intent !== undefined && receipt.attempt.intent !== intent.digest) finding('receipt', path, "is not the digest of the attempt's intent", 'attempt.intent');
  if (outcome !== undefined && receipt.attempt.outcome !== outcome.digest)
    finding('receipt', path, "is not the digest of the attempt's outcome", 'attempt.outcome');
  const candidate = outcome !== undefined ? (outcome.record as OutcomeRecord).candidate : undefined;
  for (const [name, recorded] of [
    ['the acceptance record', record.candidate],
    ['the outcome', candidate],
  ] as const) {
    if (recorded === undefined || typeof recorded === 'string' || !('commit' in recorded)) continue;
    if (receipt.candidate.commit !== recorded.commit) finding('receipt', path, `is not the candidate ${name} holds`, 'candidate.commit');
    if (receipt.candidate.tree !== recorded.tree) finding('receipt', path, `is not the candidate tree ${name} holds`, 'candidate.tree');
  }
  const ran = record.checks;
  if (receipt.checks.length !== ran.length) finding('receipt', path, `names ${receipt.checks.length} checks; the record ran ${ran.length}`, 'checks');
  receipt.checks.forEach((check, index) => {
    const run = ran[index];
    if (run === undefined) return;
    if (
      check.command !== run.command ||
      check.exitCode !== run.exitCode ||
      check.stdout.sha256 !== run.stdout.sha256 ||
      check.stderr.sha256 !== run.stderr.sha256
    )
      finding('receipt', path, `is not check ${index + 1} as the record ran it`, `checks.${index}`);
  });
  return 1;
}

/** The roles whose files a record of the run names: one that none names had its record taken out. */
const RECORD_BOUND: ReadonlySet<string> = new Set(['request', 'prompt', 'stream', 'stderr', 'result', 'check-output', 'receipt']);

/** Every kept file of the bundle is named by a record in it: a file left without one means its record was removed. */
function checkEveryFileNamed(bundle: Read, lines: readonly Line[], finding: Report): void {
  const named = new Set<string>();
  for (const { record } of lines) {
    if (record.kind === 'intent' || record.kind === 'outcome')
      for (const path of Object.values(attemptArtifactNames(record.runId, record.attempt))) named.add(path);
    if (record.kind === 'acceptance') for (const [, output] of acceptanceKeptFiles(record)) named.add(output.path);
  }
  for (const file of bundle.manifest.files)
    if (RECORD_BOUND.has(file.role) && !named.has(file.path))
      finding('links', file.path, `no record in ${RECORDS_PATH} names it: the record that did was removed`);
}

/** Each qualification record carried is one, and vouches for the adapter the run's intents name. */
function checkQualifications(bundle: Read, lines: readonly Line[], finding: Report): number {
  const adapters = new Set(lines.flatMap((line) => (line.record.kind === 'intent' ? [line.record.posture.adapter.digest] : [])));
  let count = 0;
  for (const file of bundle.manifest.files.filter((entry) => entry.role === 'qualification')) {
    const content = bundle.files.get(file.path)?.content;
    if (content === undefined) continue;
    count += 1;
    let json: unknown;
    try {
      json = parseBoundedJson(content.toString('utf8'));
    } catch {
      finding('qualification', file.path, 'is not JSON');
      continue;
    }
    const parsed = QualificationRecordSchema.safeParse(json);
    if (!parsed.success) finding('qualification', file.path, 'is not a qualification record', parsed.error.issues[0]?.path.join('.'));
    else if (!adapters.has(parsed.data.adapter.digest)) finding('qualification', file.path, 'vouches for another adapter than the run used', 'adapter.digest');
  }
  return count;
}

function short(sha256: string): string {
  return `${sha256.slice(0, 12)}…`;
}
