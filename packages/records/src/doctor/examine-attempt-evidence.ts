import type { Artifact } from '../chain/record-schemas.js';
import type { AttemptAccount } from '../read/attempt-account.js';
import { checkKeptFile, type ArtifactCheck, type ArtifactState } from '../read/check-artifacts.js';
import type { Finding } from './examine-product-home.js';
import {
  describeClassification,
  reclassifyAttempt,
  recordedStop,
  sameClassification,
  type OutcomeCheck,
  type RecordedResult,
} from '../read/reclassify-attempt.js';
import { describeFieldDisagreements } from '../read/records-against-kept-files.js';
import { readKeptFile } from '../read/read-kept-file.js';
import { rereadKeptStream, type KeptStreamConsumer } from '../read/reread-kept-stream.js';

/** What the files kept beside the chain say about one attempt: are they the sealed ones, and does the outcome follow from the stream? */
export interface AttemptEvidence {
  artifactCheck: ArtifactCheck;
  outcomeCheck: OutcomeCheck;
}

/**
 * Re-digests every file of one attempt kept beside the chain (R8.4) and re-classifies the attempt
 * from its kept stream (R8.2), reading the stream once for both. `recorded` is the outcome
 * record's result, absent while the attempt has no outcome. Read-only; synchronous reads (see
 * check-artifacts.ts).
 *
 * `justClassified`: this process's supervisor classified the attempt a moment ago from the very
 * bytes the stream's digest seals (the tee's, R8.4), with this classifier. A stream that still
 * verifies then agrees by construction, and is only digested, not parsed again: `run` answers the
 * same value `run show` does without paying a second parse of the stream.
 *
 * `streamAlsoTo`: another reader of the stream's one pass (reread-kept-stream.ts).
 *
 * `classify: false`: the stream is digested, not classified again (decision 0351): the page an
 * export carries, whose bundle `statecraft verify` classifies wherever it is read.
 */
export function examineAttemptEvidence(
  account: AttemptAccount,
  recorded: RecordedResult | undefined,
  options: { justClassified?: boolean; streamAlsoTo?: KeptStreamConsumer; classify?: boolean } = {},
): AttemptEvidence {
  const streamed =
    options.justClassified === true
      ? checkStreamJustClassified(account.artifacts.stream)
      : checkStream(account.artifacts.stream, recorded, options.streamAlsoTo, options.classify !== false);
  const artifactCheck: ArtifactCheck = {
    request: checkKeptFile(account.artifacts.request),
    prompt: checkKeptFile(account.artifacts.prompt),
    stream: streamed.state,
    stderr: checkKeptFile(account.artifacts.stderr),
    result: checkKeptFile(account.artifacts.result),
  };
  return { artifactCheck, outcomeCheck: streamed.outcomeCheck };
}

function checkStream(
  stream: Artifact | 'not-recorded',
  recorded: RecordedResult | undefined,
  alsoTo: KeptStreamConsumer | undefined,
  classify: boolean,
): { state: ArtifactState; outcomeCheck: OutcomeCheck } {
  if (stream === 'not-recorded')
    return { state: 'not-recorded', outcomeCheck: { state: 'not-checked', reason: recorded === undefined ? 'no-outcome' : 'stream-not-recorded' } };
  // A stop (deadline, interrupt, evidence not kept) ended the supervisor's reading before the pipe's end (R7.2); the re-reading stops there too.
  const endOfStream = recorded === undefined || recordedStop(recorded) === 'none';
  const kept = classify
    ? rereadKeptStream(stream.path, alsoTo === undefined ? { endOfStream } : { endOfStream, alsoTo })
    : digestKeptStream(stream.path, alsoTo);
  if (kept.kind === 'unreadable') return { state: 'missing', outcomeCheck: { state: 'not-checked', reason: 'stream-missing' } };
  if (kept.sha256 !== stream.sha256 || kept.bytes !== stream.bytes)
    return { state: 'altered', outcomeCheck: { state: 'not-checked', reason: 'stream-altered' } };
  if (recorded === undefined) return { state: 'verified', outcomeCheck: { state: 'not-checked', reason: 'no-outcome' } };
  if (kept.reading === undefined) return { state: 'verified', outcomeCheck: { state: 'not-checked', reason: 'left-to-verify' } };
  return { state: 'verified', outcomeCheck: reclassifyAttempt(recorded, kept.reading) };
}

/** The stream digested, its bytes handed to `alsoTo` as they are read, nothing parsed: no reading. */
function digestKeptStream(
  path: string,
  alsoTo: KeptStreamConsumer | undefined,
): { kind: 'read'; sha256: string; bytes: number; reading?: undefined } | { kind: 'unreadable' } {
  const kept = readKeptFile(path, alsoTo === undefined ? undefined : (chunk) => alsoTo.push(chunk), { lent: true });
  alsoTo?.end(kept);
  return kept;
}

function checkStreamJustClassified(stream: Artifact | 'not-recorded'): { state: ArtifactState; outcomeCheck: OutcomeCheck } {
  const state = checkKeptFile(stream);
  if (state === 'verified') return { state, outcomeCheck: { state: 'agrees' } };
  const reason = state === 'altered' ? 'stream-altered' : state === 'missing' ? 'stream-missing' : 'stream-not-recorded';
  return { state, outcomeCheck: { state: 'not-checked', reason } };
}

const ARTIFACT_NAMES: Record<keyof ArtifactCheck, string> = {
  request: 'request',
  prompt: 'prompt',
  stream: 'event stream',
  stderr: 'adapter stderr',
  result: 'result',
};

/** The findings one attempt's evidence gives `doctor`: each altered or missing file, and a disagreeing outcome. */
export function describeEvidenceFindings(account: AttemptAccount, evidence: AttemptEvidence): Finding[] {
  const attempt = `run ${account.runId} attempt ${account.attempt}`;
  const findings: Finding[] = [];
  for (const name of Object.keys(ARTIFACT_NAMES) as (keyof ArtifactCheck)[]) {
    const artifact = account.artifacts[name];
    const state = evidence.artifactCheck[name];
    if (artifact === 'not-recorded' || (state !== 'altered' && state !== 'missing')) continue;
    // A file the record itself says could not be written is reported by the record, not found here.
    if (account.evidence !== 'kept' && account.evidence !== 'not-recorded' && account.evidence.notKept.some((failure) => failure.path === artifact.path))
      continue;
    findings.push(
      state === 'altered'
        ? {
            kind: 'altered-artifact',
            path: artifact.path,
            message: `${artifact.path}: the ${ARTIFACT_NAMES[name]} kept for ${attempt} no longer has the digest the chain holds (${artifact.bytes} bytes, sha256 ${artifact.sha256}); it was changed after the attempt sealed it`,
          }
        : {
            kind: 'missing-artifact',
            path: artifact.path,
            message: `${artifact.path}: the ${ARTIFACT_NAMES[name]} kept for ${attempt} is missing or cannot be read; the chain holds its digest (${artifact.bytes} bytes, sha256 ${artifact.sha256})`,
          },
    );
  }
  const check = evidence.outcomeCheck;
  if (check.state === 'disagrees' && account.artifacts.stream !== 'not-recorded') {
    const stream = account.artifacts.stream.path;
    const classified = !sameClassification(check.recorded, check.fromStream);
    const fields = check.fields.length > 0 ? `${classified ? '; and ' : ': '}${describeFieldDisagreements(check.fields, 'the stream')}` : '';
    findings.push({
      kind: 'outcome-disagrees-with-stream',
      path: stream,
      message: classified
        ? `${attempt}: the chain records ${describeClassification(check.recorded)}, but its kept stream ${stream} ` +
          `(digest verified), read again by the supervisor's reader and classified by its classifier with the recorded supervision facts (timed out: ${String(account.timedOut)}), ` +
          `reads ${describeClassification(check.fromStream)}${fields}: the record was rewritten after the attempt`
        : `${attempt}: the outcome record holds what its kept stream ${stream} (digest verified), read again by the supervisor's reader, does not give` +
          `${fields}: the record was rewritten after the attempt`,
    });
  }
  return findings;
}
