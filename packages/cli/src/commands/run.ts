import type { z } from 'zod';
import type { Acceptance, SuiteHooks } from '@statecraft/acceptance';
import {
  compareAttemptRecordsWithKeptFiles,
  entriesByDigest,
  examineAttemptEvidence,
  findAttemptRecordFindings,
  foldAttempts,
  type AttemptAccount,
} from '@statecraft/records';
import type { CapabilityToken, PermissionMode, ProtocolEvent } from '@statecraft/adapter';
import type { BoundaryChoice } from '@statecraft/environment';
import { launchAttempt, planRun, readUncommittedPaths, type Launch, type RunFailure, type RunRefusal, type UncommittedPaths } from '@statecraft/run';
import { requiredNotApplied, type RunGroup, type TrustedKey } from '@statecraft/records';
import type { RunAnswerSchema } from '../json-schemas/index.js';
import type { Answer } from '../answer.js';
import { EXIT } from '../exit-codes.js';
import { STATECRAFT_VERSION } from '../statecraft-version.js';
import { accountFindings, renderFailure, renderRefusal } from './run-render.js';
import { renderAccountSummary } from './run-summary-render.js';
import { readStreamEnding } from './provider-error.js';
import { workspaceGitNote } from './workspace-git-note.js';
import { withReceiptState } from './receipt-state.js';
import { writeHumanLines, type HumanLines } from '../render/human-lines.js';
import { fitToWidth } from '../render/terminal-width.js';

export interface RunOptions {
  home: string;
  target: string;
  adapter: { executable: string; manifest?: string };
  provider?: string;
  /** Absent with `spec`: the spec's text is the prompt. */
  prompt?: string;
  required: CapabilityToken[];
  preferred: CapabilityToken[];
  deadlineMs: number;
  maxTurns: number | null;
  allow: string[];
  deny: string[];
  pass: string[];
  retryOf?: string;
  base?: string;
  spec?: string;
  /** `--group`, `--index`, `--attempts`: this attempt's place in a run group spread over an engine's jobs. */
  group?: RunGroup;
  /** The operator's environment; only allowlisted names are read from it (R5.1). */
  source: Readonly<Record<string, string | undefined>>;
  /** The protected evidence boundary (R12): on by default. */
  boundary?: BoundaryChoice;
  /** `--permissions`: absent, the boundary's default (`sandboxed` inside it, `strict` without). */
  permissions?: PermissionMode;
  /** `--allow-missing-credential`: start the adapter without the credential it declares. */
  allowMissingCredential?: boolean;
  /** `--trust` and STATECRAFT_TRUSTED_KEYS: only a record one of them signed qualifies the adapter. */
  trustedKeys?: readonly TrustedKey[];
  onEvent?: (event: ProtocolEvent) => void;
  onSpawn?: (at: { runId: string; attempt: number; deadlineMs: number }) => void;
  signal?: AbortSignal;
  /** `--accept`: judge the attempt in the same invocation, once its outcome is appended (R13). */
  accept?: {
    checkDeadlineMs: number;
    suiteDeadlineMs: number;
    hooks?: SuiteHooks & { onJudging?: (what: { runId: string; attempt: number; checks: number }) => void };
  };
}

/** What `run --json` prints: the attempt's account plus what opening the chain found, or a refusal or failure. */
export type RunValue = z.infer<typeof RunAnswerSchema>;

/**
 * `statecraft run`: plan (refusals exit 2, nothing appended), launch, and answer with the
 * account folded from the very records appended — so `run --json` and `run show --json` are the
 * same value. Exit 0 `completed`; 1 any other outcome; 2 refused before spawn; 4 i/o failure.
 */
export async function run(options: RunOptions): Promise<Answer<RunValue>> {
  const planning = await planRun(planRequestOf(options));
  if (planning.kind !== 'planned') return answerOf(planning);
  // A new run starts from a commit: what the checkout holds beyond it is said now, not found later.
  const uncommitted = planning.plan.retry === 'none' ? await readUncommittedPaths(planning.plan.target.path) : undefined;
  if (uncommitted !== undefined && uncommitted.count > 0) writeHumanLines(process.stderr, uncommittedNote(uncommitted, options.base ?? 'HEAD'));
  const launch = await launchAttempt(planning.plan, {
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    onIntent: (intent) => options.onSpawn?.({ runId: intent.runId, attempt: intent.attempt, deadlineMs: intent.deadline.milliseconds }),
  });
  if (launch.kind !== 'concluded') return answerOf(launch);
  const note = workspaceGitNote(launch);
  for (const line of note) writeHumanLines(process.stderr, [line], 'statecraft: ');
  const opened = { paths: planning.plan.paths, ...(uncommitted === undefined ? {} : { uncommitted }) };
  if (options.accept === undefined) return answerOf(launch, opened);
  // Launch, then accept: the lock is released between them, and acceptance takes it again (R8.5).
  // Judging is loaded only when asked for: most runs are not judged in the same process.
  const { acceptAttempt } = await import('@statecraft/acceptance');
  const acceptance = await acceptAttempt({
    home: options.home,
    target: planning.plan.target.path,
    runId: launch.intent.record.runId,
    attempt: launch.intent.record.attempt,
    checkDeadlineMs: options.accept.checkDeadlineMs,
    suiteDeadlineMs: options.accept.suiteDeadlineMs,
    source: options.source,
    // The checks run inside the boundary the attempt ran inside, or with none when the operator chose none (R12).
    boundary: planning.plan.boundary,
    statecraftVersion: STATECRAFT_VERSION,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.accept.hooks === undefined ? {} : { hooks: options.accept.hooks }),
  });
  return answerOf(launch, opened, acceptance);
}

/** What planning is asked, from the run's options. */
export function planRequestOf(options: RunOptions): Parameters<typeof planRun>[0] {
  return {
    home: options.home,
    target: options.target,
    adapter: options.adapter,
    ...(options.provider === undefined ? {} : { provider: options.provider }),
    ...(options.prompt === undefined ? {} : { prompt: options.prompt }),
    required: options.required,
    preferred: options.preferred,
    deadlineMs: options.deadlineMs,
    maxTurns: options.maxTurns,
    allow: options.allow,
    deny: options.deny,
    pass: options.pass,
    ...(options.retryOf === undefined ? {} : { retryOf: options.retryOf }),
    ...(options.base === undefined ? {} : { base: options.base }),
    ...(options.spec === undefined ? {} : { spec: options.spec }),
    ...(options.group === undefined ? {} : { group: options.group }),
    source: options.source,
    ...(options.boundary === undefined ? {} : { boundary: options.boundary }),
    ...(options.permissions === undefined ? {} : { permissions: options.permissions }),
    ...(options.allowMissingCredential === true ? { allowMissingCredential: true } : {}),
    ...(options.trustedKeys === undefined ? {} : { trustedKeys: options.trustedKeys }),
  };
}

export async function answerOf(
  outcome: Launch | RunRefusal | RunFailure,
  opened?: { paths: { chain: string; directory: string }; uncommitted?: UncommittedPaths },
  acceptance?: Acceptance,
): Promise<Answer<RunValue>> {
  if (outcome.kind === 'refused') {
    const refusal = { stage: outcome.stage, reason: outcome.reason, message: outcome.message, detail: outcome.detail };
    return { value: { refused: refusal }, exitCode: EXIT.refused, human: () => renderRefusal(refusal) };
  }
  if (outcome.kind === 'failed') {
    const failure = { stage: outcome.stage, path: outcome.path, message: outcome.message, spawned: outcome.spawned };
    return { value: { failed: failure }, exitCode: EXIT.failed, human: () => renderFailure(failure) };
  }
  if (opened === undefined) throw new Error('a concluded launch needs its chain paths');
  const { paths } = opened;
  const entries = [
    { record: outcome.intent.record, digest: outcome.intent.digest, lineNumber: outcome.intent.record.seq + 1 },
    { record: outcome.outcome.record, digest: outcome.outcome.digest, lineNumber: outcome.outcome.record.seq + 1 },
    ...(acceptance?.kind === 'judged' ? [acceptance.entry] : []),
  ];
  const [folded] = foldAttempts(paths.chain, paths.directory, entries, 'none');
  if (folded === undefined) throw new Error('the appended intent did not fold into an account');
  const account = await withReceiptState(folded);
  // The head was read from the run's branch as this attempt concluded, an instant ago: it is that
  // branch's tip by construction. `run show` reads the branch again, since later it may have moved.
  const headIs = account.headCommit === 'not-recorded' ? 'not-recorded' : 'current';
  // The attempt ran and its outcome is recorded whatever acceptance then met: a refusal or failure to judge is said beside it.
  const acceptanceProblem =
    acceptance === undefined || acceptance.kind === 'judged'
      ? {}
      : { acceptanceProblem: acceptance.kind === 'refused' ? { refused: { message: acceptance.message } } : { failed: { message: acceptance.message } } };
  // The same examination `run show` makes, so both print the same value; the stream was classified
  // a moment ago from the bytes its digest seals, so it is digested here, not parsed again.
  const evidence = examineAttemptEvidence(account, outcome.outcome.record.result, { justClassified: true });
  // Compared, not assumed: the records were written from the values the files were, so a
  // disagreement here is a write into the home during the run, or statecraft's own bug. Said as
  // run show says it; the exit code stays the attempt's (exitCodeOf), as for an altered file.
  const recordDisagreements = compareAttemptRecordsWithKeptFiles(account, entriesByDigest(entries));
  const recordFindings = findAttemptRecordFindings(account, paths.directory, entries);
  const value = {
    ...account,
    ...evidence,
    headIs,
    recordDisagreements,
    recordFindings,
    truncatedTail: outcome.truncatedTail,
    reclaimedLock: outcome.reclaimedLock,
    ...acceptanceProblem,
    ...readStreamEnding(account.artifacts.stream),
    ...(opened.uncommitted === undefined ? {} : { uncommitted: opened.uncommitted }),
  } satisfies RunValue;
  return {
    value,
    exitCode: exitCodeOf(account, acceptance),
    // The summary; the posture, residuals and every record check are `run show --posture`'s.
    human: (shown) => ('runId' in shown && !('attempts' in shown) ? [...renderAccountSummary(shown, accountFindings(shown)), ...renderOpening(shown)] : []),
  };
}

/** How many of the uncommitted paths the note names before it says how many more. */
const NAMED_UNCOMMITTED = 3;

/** The note at the start of a run from a checkout with uncommitted changes: how many, the first few. */
export function uncommittedNote(uncommitted: UncommittedPaths, base: string): HumanLines {
  const plural = uncommitted.count === 1 ? 'path is' : 'paths are';
  const named = uncommitted.paths.slice(0, NAMED_UNCOMMITTED).map((path) => (path.length > 60 ? `${path.slice(0, 59)}…` : path));
  const more = uncommitted.count - named.length;
  return [
    `the attempt starts from ${base.length > 20 ? `${base.slice(0, 19)}…` : base}; ${uncommitted.count} uncommitted ${plural} not part of it`,
    ...named.map((path) => `  ${path}`),
    ...(more > 0 ? [`  and ${more} more`] : []),
  ];
}

/**
 * What opening the target did before this attempt, said in the text as in --json: a stale lock
 * taken over (its supervisor gone) and a torn final line cut: silent in the text, an operator
 * could not tell a takeover had happened.
 */
function renderOpening(shown: {
  truncatedTail: 'none' | { bytes: number; offset: number };
  reclaimedLock: 'none' | 'unreadable' | { runId: string; attempt: number; pid: number };
}): HumanLines {
  const lines: string[] = [];
  if (shown.reclaimedLock === 'unreadable') lines.push('  took over       an unreadable lock left on this target (its holder unknown)');
  else if (shown.reclaimedLock !== 'none') {
    const held = shown.reclaimedLock;
    lines.push(
      `  took over       the lock of run ${held.runId} attempt ${held.attempt}, whose supervisor (pid ${held.pid}) was gone; its intent stays as it was`,
    );
  }
  if (shown.truncatedTail !== 'none') {
    lines.push(
      `  cut             a torn final line of ${shown.truncatedTail.bytes} bytes at offset ${shown.truncatedTail.offset} (an append that never finished)`,
    );
  }
  return lines.length === 0 ? [] : ['before the attempt', ...fitToWidth(lines, 18)];
}

/**
 * Without `--accept`: 0 completed, 1 otherwise. With it: 0 only when accepted (R13.4); 2 when the
 * acceptance was refused, 4 when it could not be recorded. A required token not applied is 1 (R2.4).
 */
function exitCodeOf(account: AttemptAccount, acceptance: Acceptance | undefined): (typeof EXIT)[keyof typeof EXIT] {
  // A required token the init did not apply is a finding whatever the outcome or verdict (R2.4).
  if (requiredNotApplied(account.posture.capabilities).length > 0 && acceptance?.kind !== 'refused' && acceptance?.kind !== 'failed') return EXIT.finding;
  if (acceptance === undefined) return account.outcome === 'completed' ? EXIT.ok : EXIT.finding;
  if (acceptance.kind === 'refused') return EXIT.refused;
  if (acceptance.kind === 'failed') return EXIT.failed;
  return account.acceptance !== 'not-recorded' && account.acceptance.verdict === 'accepted' ? EXIT.ok : EXIT.finding;
}
