/**
 * @statecraft/records — the product home's only owner: its layout, durable records (the
 * hash-linked chain, its checkpoint, the target lock, kept artifacts), qualification records,
 * receipts, and the read side (fold, list, show, doctor). Depends on @statecraft/adapter only.
 *
 * Modules:
 * - artifacts.ts             request, prompt, stream, stderr, result kept beside the chain with digests (R8.4)
 * - bundle/bundle-manifest.ts an exported run's manifest: every file with its digest and role, in one canonical form
 * - bundle/candidate-git-bundle.ts the run's candidate as a git bundle, made in the target repository from its base, never in the worktree
 * - bundle/git-bundle-header.ts a git bundle's header read without git: the commits it needs, the refs it brings
 * - bundle/verify-git-bundle.ts a bundle's git bundle: one ref, at the candidate the records name, needing only the base
 * - bundle/collect-bundle.ts what a run's bundle holds: its chain lines and their anchors, kept files, receipts, qualification records
 * - bundle/read-bundle.ts    reads a bundle (tar or directory) once, in bounded memory: digests, held records, the stream read
 * - bundle/tar-headers.ts    every header of a tar walked first: a member another tar would read otherwise is a finding
 * - bundle/verify-bundle.ts  a bundle checked with its own bytes alone: digests, links, the outcome again, the receipt
 * - bundle/signing-keys-used.ts the public keys of the signatures a bundle carries, from the product home or STATECRAFT_SIGNING_KEY
 * - bundle/verify-signatures.ts each receipt's and qualification record's signature in a bundle, against trusted or carried keys
 * - bundle/write-bundle.ts   writes one run's bundle as a tar or a directory, never over an existing path
 * - bundle/write-tar.ts      the bundle's tar: ustar entries (pax for a long path), each file copied once
 * - candidate.ts             the candidate's shape: commit, tree, who made it, the attempt's start, changed paths (R13.2)
 * - chain/acceptance-record.ts the acceptance record: verdict, reason, checks, receipt (R13)
 * - chain/append-record.ts   links, appends and fsyncs one record; truncates a torn tail first
 * - chain/chain-checkpoint.ts the last verified tip (digest, seq, offset) kept beside the chain, checked against its bytes
 * - chain/chain-paths.ts     where a target's records live in the product home
 * - chain/chain-summary.ts   `run list`'s reading: every link verified, only each record's leading fields parsed
 * - chain/check-chain-tip.ts before an append: the position is still the chain's tip, read from its tail only
 * - chain/digest-lines-on-worker.ts the worker that hashes lines in the shared buffer they were read into, beside the parsing
 * - chain/digest-lines.ts    each line's sha256, for the links: in this thread for short readings, on a worker for long ones
 * - chain/land-record.ts     the land and prune records: a candidate taken into the operator's branch; workspaces removed
 * - chain/leading-fields.ts  where a line's leading fields end: the text `run list` parses of each record
 * - chain/open-chain-for-append.ts an append's reading: from the checkpoint if it matches, else from the beginning
 * - chain/open-chain-for-run.ts `accept`'s reading: every link verified, the judged run's intents and outcomes read whole, the rest by leading fields
 * - chain/open-chain.ts      reads and verifies every link; torn tail reported, corruption refused (R8.4)
 * - chain/read-chain-lines.ts the chain's complete lines from an offset, read in chunks: memory flat whatever its length
 * - chain/record-bound.ts    the most bytes a record takes: a longer line is refused, never read whole nor cut as torn
 * - chain/serial-appender.ts the one writer of a chain for a run of several attempts: appends and reads in turn, each linked to the tip
 * - chain/record-schemas.ts  the chain's record kinds (intent, outcome, acceptance), one zod schema each
 * - chain/refuse-unreadable-record.ts before an append: the record parses with the reader's schema and is within the bound, or nothing is written
 * - chain/summary-fast-check.ts accepts a summary the schema certainly accepts without the schema's parse; the rest go to it
 * - chain/summary-reading-on-worker.ts the hashing worker reads every other batch's leading fields too, as far as it is certain
 * - chain/target-name.ts     target.json: the repository a target's records belong to, one schema for its writer and readers
 * - concluded-posture.ts     the posture as the attempt ran it, carried on the outcome: applied tokens, containment used, survivors (R6)
 * - doctor/attempt-files-after-intent.ts an unnamed attempt's files that follow an intent: its records are missing, not never written (doctor)
 * - doctor/attempt-record-findings.ts what doctor finds of the records beyond the files and their copies: every attempt's (doctor), one attempt's (run show)
 * - doctor/check-acceptance-evidence.ts re-digests receipts and check outputs (regular files only) against their acceptance records (doctor, run show)
 * - doctor/check-acceptance-records.ts acceptance records against what a judgement writes: after a final verdict, evidence elsewhere, another attempt or candidate (doctor, run show)
 * - doctor/check-checkpoint-presence.ts a chain with records and no checkpoint, or not a regular file in its place (doctor)
 * - doctor/check-outcome-records.ts one outcome per intent: a second names both lines, and every reader reads the first (doctor, run show)
 * - doctor/check-run-ids.ts  intents whose run id is not one run makes: no path derived from it, in no account (doctor)
 * - doctor/check-target-lock.ts a target's lock: the live holder, or stale, or no file run can open (doctor)
 * - doctor/check-target-name.ts target.json against the chain's intents and the key its path derives to, or unreadable beside intents (doctor)
 * - doctor/check-workspace-git.ts doctor: a workspace whose git is not what statecraft made
 * - doctor/examine-attempt-evidence.ts one attempt's kept files and outcome against the chain, and the findings they give
 * - doctor/examine-product-home.ts every chain in the product home: links, torn tails, dangling intents, and each check below, in order
 * - doctor/receipt-against-record.ts the receipt an acceptance record carries against its kept, verified receipt.json
 * - doctor/unrecorded-acceptance-files.ts acceptance directories holding a receipt or check outputs that no record names (doctor)
 * - doctor/unrecorded-attempt-files.ts attempt directories no intent names, and what their run left in the repository (doctor)
 * - git/git-process.ts       one short git process, run to its end (git/git.ts, run's coverage/git-for-reading.ts)
 * - git/git.ts               git run in a directory with no shell, no hooks and none of the supervisor's git variables
 * - git/in-worktree-turn.ts  changes to the worktree registrations made one at a time in this process (git dies reading one half made)
 * - git/registered-git-directory.ts a worktree's git directory found from the repository's side, and git's options for a worktree an agent could write (R12)
 * - git/resolve-target.ts    the target repository and its base commit (one rev-parse), keyed as the product home files it
 * - git/workspace-git-as-made.ts the workspace's .git pointer and registration as statecraft made them: compared, and put back at an attempt's end
 * - lock/dead-attempt-temporary-directory.ts the TMPDIR of an attempt whose supervisor died, removed by the one taking its lock over (R5.5)
 * - lock/lock-holder.ts      the lock record, its identity (inode and bytes), and whether its holder lives
 * - lock/repository-lock.ts  one live attempt per target; stale locks of dead supervisors taken over (R8.5)
 * - lock/under-target-lock.ts the lock, the chain opened and verified, the work, the lock released: accept, land and prune
 * - lock/take-over-stale-lock.ts a stale lock has exactly one taker: a claim per lock file, created with link(2)
 * - posture.ts               the posture schema (R6)
 * - product-home.ts          `$STATECRAFT_HOME` (default `~/.statecraft`), the target key, the home's layout (R8.4)
 * - qualification/check-qualification.ts a binary checked against the qualification records (R3.4)
 * - qualification/qualification-record.ts the qualification record's schema (R3)
 * - qualification/qualification-store.ts qualification records in the product home: written once, listed, shown (R3)
 * - qualification/reference-record.ts the repository's reference qualification records (qualification/records/)
 * - read/acceptance-view.ts  an acceptance as shown (the `accept --json` contract), derived `not-attempted`, receipt `stale`
 * - read/attempt-account.ts  the account of one attempt: the JSON contract of `run --json` / `run show --json`
 * - read/attempt-records.ts  the chain's entries by digest, and one account's intent and outcome found among them
 * - read/check-artifacts.ts  re-digests the files kept beside the chain: verified, altered or missing
 * - read/read-kept-file.ts   a kept file's digest as it stands, read once in bounded chunks: the one reader (doctor, reconcile, run log)
 * - read/earlier-final-verdict.ts an attempt already judged accepted, failed or authority-change: not judged again (R13.4, R8.5)
 * - read/fold-attempts.ts    pairs intents with their first outcomes; an intent alone is dangling, never completed (R8.3); each kept file where its attempt keeps it
 * - read/landed-receipt-state.ts a landed receipt stays current while the landed commit is in its branch
 * - read/list-attempts.ts    one summary line per attempt, for `run list`
 * - read/open-target-records.ts opens one target's chain and lock read-only; a broken chain is refused
 * - read/own-evidence-paths.ts where an attempt and its judgements keep their files (none without a well-formed run id), and the records that name them elsewhere (doctor, run show, accept)
 * - read/reclassify-attempt.ts classifies an attempt again from its kept stream with the supervisor's classifier; compares
 * - read/records-against-kept-files.ts what the records copy of the kept, verified request and result, compared field by field (doctor, run show)
 * - read/reread-kept-stream.ts reads a kept event stream once, as a stream: its digest and the supervisor's reading of it
 * - read/workspace-freshness.ts whether an attempt's recorded head is still its run's branch tip (`stale` when not, R8.3)
 * - receipt.ts               the acceptance receipt, published as JSON Schema beside the protocol's (R13.6)
 * - run-id.ts                run ids
 * - collect/collect-group.ts  `collect`: a run group's bundles verified, refused by name or ranked, the selection appended
 * - bundle/extract-bundle-file.ts one file of a bundle copied out and digested against its manifest
 * - collect/read-group-bundle.ts one bundle verified offline with the trusted keys, as one attempt of a group
 * - selection/rank-key.ts    what an attempt is ranked on (verdict, refusals, change, cost, duration): recorded evidence only
 * - selection/rank-attempts.ts the fixed ranking rule: attempts best first, recomputable by anyone from their records
 * - selection/selection-of.ts a run's selection record: its attempts ranked, the first chosen
 * - selection/selection-record.ts the selection record's schema
 * - signing/read-signed-bundle.ts the Sigstore bundle beside a record, as text, or none
 * - signing/sign-statement.ts an in-toto statement signed into a Sigstore bundle (DSSE, public-key hint, offline)
 * - signing/signed-bundle-path.ts where a record's bundle is kept: `X.json` → `X.sigstore.json`
 * - signing/signed-statement.ts the in-toto statements of a receipt and of a qualification record
 * - signing/signing-key.ts   the signing key: the product home's pair or STATECRAFT_SIGNING_KEY; made by `keys generate`
 * - signing/trusted-keys.ts  the public keys an operator trusts: --trust and STATECRAFT_TRUSTED_KEYS
 * - signing/verify-signed-bundle.ts a record's bundle checked with Sigstore's verifier against the trusted keys
 * - workspace-location.ts    where a run's workspace and branch are in the target (.statecraft/state, kept out of git)
 * - state-directory-own.ts   why the target's .statecraft/state is not statecraft's own to use (a link on the way to it)
 * - failed-file.ts          a failed write step carries the file it was writing, so the failure names it
 * - bounded-json.ts         JSON parsed only within a nesting depth: what a bundle or a record holds cannot overflow the stack
 * - remembered-bwrap-version.ts bwrap's version for the boundary record, remembered by the binary's identity (environment asks, records keeps)
 * - remembered-digests.ts   file digests remembered by identity: a provider binary hashed once, not per attempt
 * - remembered-entry-file.ts one cache entry in the product home, read against its schema and written whole
 * - durable-write.ts         whole files written atomically and fsync'd (once, with `exclusive`); directory fsync; every byte of a write
 * - writable-paths-remembered.ts every managed path a boundary bound writable, remembered in the product home: no later run of any adapter takes a target inside one (R12)
 */
export { keepArtifact } from './artifacts.js';
export { type BundleManifest, BundleManifestSchema, type BundleRole } from './bundle/bundle-manifest.js';
export { type BundleSource } from './bundle/collect-bundle.js';
export { readBundle } from './bundle/read-bundle.js';
export { type BundleCheckName, type BundleFinding, type BundleHold, type BundleVerification, verifyBundleContents } from './bundle/verify-bundle.js';
export { verifyBundleSignatures } from './bundle/verify-signatures.js';
export { type BundleWriting, writeRunBundle } from './bundle/write-bundle.js';
export { type Candidate, CandidateSchema, IGNORED_FILES_NOTE, type OutcomeCandidate, OutcomeCandidateSchema } from './candidate.js';
export {
  type AcceptanceReason,
  type AcceptanceRecord,
  AcceptanceRecordSchema,
  type AcceptanceVerdict,
  CheckOutputSchema,
  type CheckRun,
  CheckRunSchema,
  VERDICT_OF_REASON,
} from './chain/acceptance-record.js';
export { type AppendedRecord, appendRecord, type ChainPosition } from './chain/append-record.js';
export { ChainCheckpointSchema, refusalOfContradictedChain } from './chain/chain-checkpoint.js';
export { acceptanceDirectoryName, attemptArtifactNames, chainPaths, type ChainPaths, targetDirectoryIn, targetsDirectoryIn } from './chain/chain-paths.js';
export { type ChainSummary, ChainSummarySchema, openChainSummaries } from './chain/chain-summary.js';
export { ChainMovedError } from './chain/check-chain-tip.js';
export { WORKER_DIGEST_THRESHOLD } from './chain/digest-lines.js';
export { RANKED_VERDICTS, RANKING_RULE_VERSION, type RankKey, RankKeySchema, rankKeyOf } from './selection/rank-key.js';
export { rankAttempts, rankKeyed, type RankedAttempt } from './selection/rank-attempts.js';
export { selectionOf, type UnlinkedSelection } from './selection/selection-of.js';
export { collectGroup } from './collect/collect-group.js';
export { readGroupBundle } from './collect/read-group-bundle.js';
export { extractBundleFile } from './bundle/extract-bundle-file.js';
export { type SelectionRecord, SelectionRecordSchema } from './selection/selection-record.js';
export { type LandMethod, LandMethodSchema, type LandRecord, type PrunedAttempt, PrunedAttemptSchema } from './chain/land-record.js';
export { openChainForAppend } from './chain/open-chain-for-append.js';
export { SerialAppender } from './chain/serial-appender.js';
export { openChainForRun, type RunChainRecord } from './chain/open-chain-for-run.js';
export { type ChainEntry, type ChainOpening, type LinkedRecord, openChain } from './chain/open-chain.js';
export { readChainLines } from './chain/read-chain-lines.js';
export { MAX_RECORD_BYTES } from './chain/record-bound.js';
export {
  type Artifact,
  ArtifactSchema,
  type ChainRecord,
  ChainRecordSchema,
  type IntentRecord,
  IntentRecordSchema,
  type OutcomeRecord,
  OutcomeRecordSchema,
  type RunGroup,
  StoredAttemptResultSchema,
  TruncatedTailSchema,
  type UnlinkedRecord,
} from './chain/record-schemas.js';
export { UnreadableRecordError } from './chain/refuse-unreadable-record.js';
export { quickSummaryCheck } from './chain/summary-fast-check.js';
export { formatTargetName, parseTargetName, TARGET_NAME_BYTES } from './chain/target-name.js';
export { findAttemptRecordFindings } from './doctor/attempt-record-findings.js';
export { examineAttemptEvidence } from './doctor/examine-attempt-evidence.js';
export { examineProductHome, type Finding, type HomeExamination } from './doctor/examine-product-home.js';
export { runGitProcess } from './git/git-process.js';
export { runGit } from './git/git.js';
export { inWorktreeTurn } from './git/in-worktree-turn.js';
export { registeredGitDirectory, untrustedWorktreeGitOptions } from './git/registered-git-directory.js';
export { type ResolvedTarget, resolveTarget } from './git/resolve-target.js';
export { restoreWorkspaceGit, type WorkspaceGitRestoration } from './git/workspace-git-as-made.js';
export { removeDeadAttemptTemporaryDirectory } from './lock/dead-attempt-temporary-directory.js';
export { isLive, type LockHolder, LockHolderSchema, readLockInstance } from './lock/lock-holder.js';
export { acquireRepositoryLock } from './lock/repository-lock.js';
export { type AppendUnderLock, type OpenedChain, openChainToAppend, underTargetLock } from './lock/under-target-lock.js';
export { type CoverageVerdict, type Posture, PostureSchema, type QualificationLabel, requiredNotApplied } from './posture.js';
export { checkProductHomeWritable, productHomeLayout, refuseDanglingLink, resolveProductHome, targetKey } from './product-home.js';
export { checkQualification, type ManifestToCheck, type RecordSignature } from './qualification/check-qualification.js';
export { QualificationIdSchema, QualificationRecordSchema } from './qualification/qualification-record.js';
export { readSignedBundle } from './signing/read-signed-bundle.js';
export { signStatement } from './signing/sign-statement.js';
export { signedBundlePath } from './signing/signed-bundle-path.js';
export { type InTotoStatement, PREDICATE_TYPES, qualificationStatement, receiptStatement } from './signing/signed-statement.js';
export { generateSigningKey, keyIdOf, readSigningKey, type SigningKey, signingKeyPaths, SigningKeyProblem } from './signing/signing-key.js';
export { readTrustedKeys, type TrustedKey } from './signing/trusted-keys.js';
export { type SignatureCheck, type SignedContent, verifySignedBundle } from './signing/verify-signed-bundle.js';
export { listQualificationRecords, qualificationsDir, showQualificationRecord, writeQualificationRecord } from './qualification/qualification-store.js';
export { keepReferenceRecord } from './qualification/reference-record.js';
export { type AcceptanceView, readCandidateIsTip, readReceiptState, viewOfAcceptance } from './read/acceptance-view.js';
export { type AttemptAccount } from './read/attempt-account.js';
export { entriesByDigest } from './read/attempt-records.js';
export { checkKeptFile } from './read/check-artifacts.js';
export { readKeptFile, type KeptFileReading } from './read/read-kept-file.js';
export { describeEarlierFinalVerdict, findEarlierFinalVerdict, isFinalVerdict } from './read/earlier-final-verdict.js';
export { foldAttempts, type LiveHolder } from './read/fold-attempts.js';
export { type Landing, landingsIn, readLandedIsReachable } from './read/landed-receipt-state.js';
export { type AttemptList, type AttemptSummaries, type AttemptSummary, startAttemptSummaries } from './read/list-attempts.js';
export { openTargetRecords, openTargetSummaries, type OpenedTargetRecords } from './read/open-target-records.js';
export { attemptFilesElsewhere, namedElsewhereByRecord } from './read/own-evidence-paths.js';
export { describeClassification, type OutcomeCheck, reclassifyAttempt, sameClassification } from './read/reclassify-attempt.js';
export {
  compareAttemptRecordsWithKeptFiles,
  compareRecordsWithKeptFiles,
  describeFieldDisagreements,
  type RecordDisagreement,
} from './read/records-against-kept-files.js';
export { rereadKeptStream, type KeptStreamConsumer } from './read/reread-kept-stream.js';
export { readWorkspaceFreshness } from './read/workspace-freshness.js';
export { type Receipt, ReceiptSchema } from './receipt.js';
export { isRunId, newRunId } from './run-id.js';
export { attemptWorkspaceLocation, runWorkspaceLocations, STATE_DIRECTORY, workspaceLocation } from './workspace-location.js';
export { stateDirectoryNotOwn } from './state-directory-own.js';
export { writeFileDurably } from './durable-write.js';
export { bwrapVersionMemo } from './remembered-bwrap-version.js';
export { digestFileCached, knownDigestOf } from './remembered-digests.js';
export { failedPath, writingFile } from './failed-file.js';
export { ATTEMPT_FILE_NAMES, newAttemptTag } from './attempt-files.js';
export { readRememberedWritablePaths, type RememberedWritablePath, rememberWritablePaths } from './writable-paths-remembered.js';
