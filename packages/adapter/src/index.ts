/**
 * @statecraft/adapter — the seam: the contract an adapter author builds against. It names no
 * provider (R1.1) and spawns nothing: supervision and the suite are @statecraft/run's, the
 * boundary and containment @statecraft/environment's, the product home @statecraft/records'.
 *
 * Modules:
 * - capabilities.ts        the closed six-token vocabulary (R2.1)
 * - schema-pieces.ts       the shapes every record shares, defined once: digests, commit ids, counts, times, cost, verdict, an adapter's object kept verbatim
 * - candidate-origin.ts    an attempt's start and who made its candidate (R13.2): the run's records and the receipt share them
 * - protocol/version.ts    the protocol version every request and event carries (R1.5)
 * - protocol/manifest.ts   the adapter manifest schema (R2.2)
 * - protocol/request.ts    the request the supervisor writes (R1.2)
 * - protocol/events.ts     the NDJSON events the adapter emits: init, progress, refusal, result, error
 * - read-manifest.ts       reads a manifest without executing anything, and its digest for qualification (canonical JSON)
 * - canonical-json.ts      one spelling of a JSON value (sorted keys, no whitespace): a digest of what a reader acts on
 * - negotiate.ts           required / preferred tokens against the manifest; init discrepancies (R2.3, R2.4)
 * - supervise/attempt.ts   what the supervisor observed of one process (shapes)
 * - outcome.ts             the five outcomes (R8.1) and interruption causes
 * - classify.ts            the supervisor's reading of an attempt into an outcome (R8.2, R10.4); what a result reads from the stream alone
 * - result.ts              the recorded attempt result (R1.2)
 * - schema-errors.ts       zod errors as sentences naming file and field
 * - content-digest.ts      sha256 digests of files and bytes
 * - make-directories.ts    a directory and its missing parents, made one at a time so a refusing file system (/proc) fails at once
 * - regular-file.ts        files statecraft keeps opened only if regular, never waiting: a FIFO in their place is named, not waited on, and what stands there said in one wording (describeUnopenable); small files read within a bound, a tail read as a tail
 * - failure-words.ts       what a failure says after the path it names, so a caller naming the file does not name it twice
 * - executable-file.ts     whether a path can be executed, and the one PATH search every package uses
 * - path-entries.ts        keeps PATH's absolute entries only: an empty or relative one resolves in the agent's workspace (R5.1)
 * - file-identity.ts       what identifies a file's bytes without reading them (device, inode, size, times)
 * - digest-cache.ts        a file's known digest (path, identity, sha256) handed to the adapter in the request, and its match
 * - suite/driver.ts        how the negative suite provokes behaviour from one adapter (the contract an adapter's suite driver meets)
 * - suite/case-table.ts    the suite's nine rows and its version, as data (run runs them; a qualification record names them)
 * - suite/suite-report.ts  the suite report's schema, carried in a qualification record
 * - suite/altered-streams.ts a recorded stream's named defects written as files, for rows 4 and 5's replays
 * - suite/live-measurement.ts row 6's step: one live session provoked, its events read, the token judged
 * - suite/scenario-prompt-driver.ts the `scenario: <name>` prompt convention (the fixture's, and the default driver)
 * - qualification/         qualification records: write once, list, show, check a binary (R3)
 * - fixture-adapter-path.ts where the shipped fixture adapter and replay child live
 * - package-root.ts        an installed package's root by its name: node_modules looked up directly, Node's resolver behind
 * - stream/*               the bounded NDJSON event-stream reader: trusted prefix, diagnostics (R7.4, R7.5)
 * - stream/refusal-tally.ts refusals kept bounded: a count, a running digest, the first few
 * - supervise/find-attempt-processes.ts an attempt's living processes found by its tag in /proc (R7.3): run kills them, doctor names them
 * - supervise/boundary-record.ts  the protected evidence boundary's shapes: profile, probe findings, record, residuals (R12)
 * - shell-reading/*        a Bash command line as deny and allow rules read it, and what that reading cannot judge (fail closed, R14.2):
 *                          every adapter's deny hook applies the same reading
 * - adapter-kit/*          what every adapter executable shares: the event writer (NDJSON out, stamped, schema-checked),
 *                          the event draft, and the provider's stdout split into bounded byte lines (R1.2, R7.5)
 * - adapter-kit/read-request.ts            the request file read and checked against the protocol (R1.2)
 * - adapter-kit/failure-before-provider.ts an init + error when the provider cannot be started: failure spoken in the protocol
 * - adapter-kit/open-session.ts            an invocation's first steps: request read, prompt matched, failures spoken (R5.4)
 * - adapter-kit/resolve-provider.ts        the provider binary on the constructed PATH, with its version and digest (R10.7)
 * - adapter-kit/private-files.ts          an adapter's private files: outside the workspace, exclusive 0600, removed after (R10.1)
 * - adapter-kit/provider-child.ts         the provider started with the adapter's spawn, the prompt on stdin, its exit grace, removal on interrupt, the last word (R1.3, R10.1)
 * - adapter-kit/provider-lines.ts         the provider's stdout as numbered text lines, or the defect to pass on (R7.5)
 * - adapter-kit/native-line-mapping.ts    what every stream mapper shares: a line read as JSON, progress detail bounded, events held until the init (R7.5)
 * - adapter-kit/model-scenario.ts         a model-double scenario around the provider's own replies; hang, http-error; loading
 * - adapter-kit/scripted-model-server.ts   the HTTP plumbing of every provider's model double: loopback, scenario routes behind opaque tokens, stop
 * - coverage/*             command coverage: check commands against the allowance (R9)
 * - environment-record.ts    the recorded account of a child's environment: every name it received (R5.1, R6)
 * - residuals.ts             what a constructed environment does not buy, named on every attempt (R5.3), and what the process-group fallback adds
 *
 * What this package does not claim: that the evidence boundary (R12) denies the network, Unix
 * sockets or reads outside the product home (its named residuals), or anything at all without it
 * (R5.3); that a program run by another program is seen by command coverage (R9.3).
 */
export { CAPABILITY_TOKENS, CapabilityListSchema, type CapabilityToken, CapabilityTokenSchema } from './capabilities.js';
export {
  CommitIdSchema,
  CountSchema,
  DurationMsSchema,
  QualificationVerdictSchema,
  RecordedCostSchema,
  RecordTimeSchema,
  Sha256DigestSchema,
  Sha256HexSchema,
  SizedDigestSchema,
  VerbatimObjectSchema,
} from './schema-pieces.js';
export { type AttemptStart, AttemptStartSchema, CandidateMadeBySchema, type EarlierCommit, EarlierCommitSchema } from './candidate-origin.js';
export { PROTOCOL_VERSION, ProtocolVersionSchema } from './protocol/version.js';
export {
  type Manifest,
  ManifestSchema,
  type Prerequisite,
  PrerequisiteSchema,
  type ProviderIdentityFile,
  ProviderIdentityFileSchema,
} from './protocol/manifest.js';
export { appliedPermissionMode, type PermissionMode, PermissionModeSchema, type Request, RequestSchema } from './protocol/request.js';
export {
  EventSchema,
  type InitEvent,
  NotRecordedSchema,
  type ProtocolEvent,
  type ProviderIdentity,
  ProviderIdentitySchema,
  type TerminalState,
} from './protocol/events.js';
export { type ManifestReading, readManifest, sidecarManifestPath } from './read-manifest.js';
export { describeUnopenable, openRegularFile, openRegularFileSync, readRegularFile, readRegularFileTail } from './regular-file.js';
export { keepAbsolutePathEntries } from './path-entries.js';
export { wordsAfterPath } from './failure-words.js';
export { findUnappliedCapabilities, negotiateCapabilities, type Negotiation } from './negotiate.js';
export {
  type Containment,
  type ContainmentMechanism,
  ContainmentSchema,
  ExitSchema,
  type Stop,
  StreamDiagnosticSchema,
  StreamDigestSchema,
  type SupervisedAttempt,
  type Survivor,
  SurvivorSchema,
} from './supervise/attempt.js';
export { type InterruptionCause, InterruptionCauseSchema, type Outcome, OutcomeSchema } from './outcome.js';
export { classifyAttempt, classifyOutcome, resultReadFromStream } from './classify.js';
export { type AdapterIdentity, AdapterIdentitySchema, type AttemptResult, AttemptResultSchema } from './result.js';
export { describeSchemaIssues } from './schema-errors.js';
export { digestFile, hashFile, sha256Hex } from './content-digest.js';
export { makeDirectories } from './make-directories.js';
export { checkExecutableFile, EXECUTABLE_CHECK_WORDS, findExecutableOnPath } from './executable-file.js';
export { FileIdentitySchema, readFileIdentity, sameFileIdentity } from './file-identity.js';
export { type KnownDigest, KnownDigestSchema, matchKnownDigest } from './digest-cache.js';
export { type DriverScenario, type EvidenceKind, type MeasurementContext, type Provocation, type SuiteDriver, type TokenMeasurement } from './suite/driver.js';
export { DEFAULT_MAX_LINE_BYTES, OVERSIZE_EVIDENCE_BYTES } from './stream/line-splitter.js';
export { EventStreamReader, type StreamReading } from './stream/event-stream-reader.js';
export { readEventStream } from './stream/read-event-stream.js';
export { nestsDeeperThan } from './stream/nesting-bound.js';
export {
  REFUSAL_EXCERPT_COUNT,
  REFUSAL_EXCERPT_LINE_BYTES,
  type RefusalDigest,
  RefusalDigestSchema,
  RefusalExcerptEntrySchema,
} from './stream/refusal-tally.js';
export {
  type AllowanceSource,
  buildAllowance,
  type CheckedCoverage,
  classifyCommand,
  type CommandReading,
  compareCoverage,
  COVERAGE_LIMITS,
  describeCoverage,
  describeChecksSource,
  type CoverageReadFrom,
  type DeclarationInput,
  readRecordedCoverage,
  type RecordedCoverage,
  RecordedCoverageSchema,
  StoredCoverageSchema,
  WRAPPER_PROGRAMS,
} from './coverage/index.js';
export {
  ATTEMPT_TAG_VARIABLE,
  describeCommand,
  findAttemptProcesses,
  isLiving,
  markAttemptSpawn,
  startTimeOfThisProcess,
} from './supervise/find-attempt-processes.js';
export {
  type BoundaryPath,
  BoundaryPathSchema,
  type BoundaryPathRole,
  type BoundaryProfile,
  type BoundaryRecord,
  BoundaryRecordSchema,
  type BoundaryResidual,
  BWRAP_RESIDUALS,
  noBoundaryRecord,
  type ProbeCheck,
  ProbeCheckSchema,
} from './supervise/boundary-record.js';
export { fixtureAdapterPath, replayAdapterPath } from './fixture-adapter-path.js';
export { packageRootOf } from './package-root.js';
export { type EventDraft } from './adapter-kit/event-draft.js';
export { EventWriter } from './adapter-kit/event-writer.js';
export { openSession } from './adapter-kit/open-session.js';
export { type ProviderCommand, type ProviderResolution, resolveProvider } from './adapter-kit/resolve-provider.js';
export { isPathInside, privateDirectoryRemoval, type PrivateRemoval, writeExclusivePrivateFile } from './adapter-kit/private-files.js';
export {
  awaitExitWithGrace,
  type ProviderChild,
  type ProviderInvocation,
  removeOnInterrupt,
  type StartedProvider,
  startProvider,
  writeEnding,
} from './adapter-kit/provider-child.js';
export { providerLines } from './adapter-kit/provider-lines.js';
export { plainSimpleCommand, readingsOf, simpleCommands } from './shell-reading/command-line-reading.js';
export { hiddenFromEveryRule, unjudgeableUnderDeny } from './shell-reading/deny-judgeability.js';
export { HeldUntilInit, type MappedLine, parseNativeLine, progressDetail, type StreamMapperContext } from './adapter-kit/native-line-mapping.js';
export { HangReplySchema, HttpErrorReplySchema, loadScenarioFile, loadScenarioFiles, scenarioSchemaFor } from './adapter-kit/model-scenario.js';
export { type ScriptedExchange, type ScriptedModelDouble, sendJson, startScriptedModelServer } from './adapter-kit/scripted-model-server.js';
export { identifyProvider, type ProviderIdentification, ProviderIdentificationSchema } from './qualification/provider-identity.js';
export {
  type AbsentName,
  AbsentNameSchema,
  type EnvironmentRecord,
  EnvironmentRecordSchema,
  type EnvironmentRefusal,
  type PlacedName,
  PlacedNameSchema,
} from './environment-record.js';
export { type ContainmentKind, ENVIRONMENT_RESIDUALS, residualsFor } from './residuals.js';
export { SUITE_CASES, SUITE_VERSION, type SuiteCase, type SuiteRow } from './suite/case-table.js';
export {
  type CaseReport,
  CaseReportSchema,
  QualifiedAdapterSchema,
  type QualifiedProvider,
  QualifiedProviderSchema,
  type SuiteReport,
  SuiteReportSchema,
} from './suite/suite-report.js';
export { fixtureDriver, scenarioPromptDriver } from './suite/scenario-prompt-driver.js';
export { type LineAlteration, writeAlteredStreams } from './suite/altered-streams.js';
export { liveMeasurement } from './suite/live-measurement.js';
