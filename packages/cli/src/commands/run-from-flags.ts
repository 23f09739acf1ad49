import type { Command } from 'commander';
import type { PermissionMode } from '@statecraft/adapter';
import { readBoundaryChoice, readExposedPaths, type BoundaryChoice } from '@statecraft/environment';
import { checkProductHomeWritable, resolveProductHome } from '@statecraft/records';
import { emit } from '../answer.js';
import { UsageError } from '../errors.js';
import { listenForOperatorInterrupt } from '../operator-interrupt.js';
import { liveLineFor, type LiveLine } from '../render/live-line.js';
import { RunStatus } from '../render/run-status.js';
import { checkStatusHooks } from '../render/check-status.js';
import { writeHumanLines } from '../render/human-lines.js';
import { run, type RunOptions } from './run.js';
import { resolveAdapterArgument } from './run-adapters.js';
import { MOST_TURNS, parseDuration, parsePassNames, parsePositiveInteger, readPrompt } from './option-parsers.js';
import { checkSupervisionOverrides, parseTokens } from './run-options.js';
import { targetOrCurrentRepository } from './default-target.js';
import { withRetryDefaults } from './with-retry-defaults.js';
import { groupOf } from './run-group.js';
import { refuseSigningKeyInReach, signingKeyOrRefusal, trustedKeysOrRefusal } from './signing-options.js';

/** `run`'s flags, as commander parses them. */
export interface RunFlags {
  spec?: string;
  prompt?: string;
  promptFile?: string;
  adapter: string[];
  attempts?: string;
  parallel?: string;
  manifest?: string;
  provider?: string;
  require: string[];
  prefer: string[];
  deadline: string;
  maxTurns?: string;
  allow: string[];
  deny: string[];
  pass: string[];
  retry?: string;
  group?: string;
  index?: string;
  base?: string;
  boundary?: string;
  permissions?: string;
  expose: string[];
  trust: string[];
  accept: boolean;
  allowMissingCredential: boolean;
  checkDeadline: string;
  suiteDeadline: string;
  json: boolean;
}

/** `run`'s action: the flags checked and parsed, the attempt run with its live status line, the answer printed. */
export async function runFromFlags(given: string | undefined, flags: RunFlags, command: Command): Promise<void> {
  const target = await targetOrCurrentRepository(given);
  refuseIdleOptions(flags, command);
  const many = attemptsOf(flags);
  // One attempt of a run group spread over an engine's jobs: the adapters taken round robin by its index.
  const grouped = groupOf(flags, process.env);
  // A retry reuses its run's adapter, prompt and limits, each unless given here (retry-defaults.ts);
  // its code reads the target's records, which a first attempt never loads.
  const retried = flags.retry === undefined ? undefined : await retryDefaultsOf(target, flags, flags.retry);
  const adapter = await adapterOf(flags.adapter[grouped.group === undefined ? 0 : grouped.group.index % Math.max(1, flags.adapter.length)], retried?.adapter);
  // With --spec and no prompt, the spec's text is the prompt.
  const promptFromSpec = flags.spec !== undefined && flags.prompt === undefined && flags.promptFile === undefined;
  const promptGiven = flags.prompt !== undefined || flags.promptFile !== undefined || flags.spec !== undefined;
  const prompt = promptFromSpec ? undefined : retried !== undefined && !promptGiven ? retried.prompt() : await readPrompt(flags.prompt, flags.promptFile);
  const choice = readBoundaryChoice(flags.boundary, process.env);
  if (choice.kind === 'invalid') throw new UsageError(choice.message);
  const exposed = readExposedPaths(flags.expose, choice, resolveProductHome().path);
  if (exposed.kind === 'invalid') throw new UsageError(exposed.message);
  const boundary = exposed.choice;
  const permissions = permissionsOf(flags, boundary, retried?.permissions);
  checkSupervisionOverrides();
  checkProductHomeWritable(resolveProductHome().path);
  const trustedKeys = await trustedKeysOrRefusal(flags.trust, process.env);
  refuseSigningKeyInReach(process.env, boundary, resolveProductHome().path);
  // A key file that cannot sign is refused before the attempt, not after it at the judgement.
  if (flags.accept) await signingKeyOrRefusal(resolveProductHome().path, process.env);
  const status = new RunStatus();
  // Several attempts at once share no one status line: their table is the answer.
  const live = flags.json || many !== undefined ? undefined : liveLineFor(process.stdout);
  const checkDeadlineMs = parseDuration('--check-deadline', flags.checkDeadline);
  const suiteDeadlineMs = parseDuration('--suite-deadline', flags.suiteDeadline);
  const checkStatus = checkStatusHooks(live);
  const ticker = live === undefined ? undefined : setInterval(() => status.running && live.show(status.line()), 250);
  // The operator's interrupt cancels the attempt (R8.1): its tree is killed and the outcome recorded.
  const interrupt = listenForOperatorInterrupt();
  try {
    const options: RunOptions = {
      ...checkAllowUnder(
        permissions,
        withRetryDefaults(runOptionsOf(target, flags, adapter, prompt, boundary), retried, (option) => command.getOptionValueSource(option) === 'cli'),
      ),
      trustedKeys,
      onSpawn: (at) => {
        status.started(at);
        live?.show(status.line());
      },
      onEvent: (event) => {
        status.observe(event);
        if (status.running) live?.show(status.line());
      },
      signal: interrupt.signal,
      ...(flags.accept ? { accept: { checkDeadlineMs, suiteDeadlineMs, hooks: judgingHooks(checkStatus, status, live) } } : {}),
    };
    const answer =
      many === undefined
        ? await run(options)
        : await (
            await import('./run-attempts.js')
          ).runAttempts(options, {
            ...many,
            ...(flags.json ? {} : { progress: (line: string) => writeHumanLines(process.stderr, [line], 'statecraft: ') }),
            adapters: await Promise.all(flags.adapter.map(async (named) => adapterOptionOf(flags, await adapterOf(named)))),
          });
    if (live !== undefined && status.running) live.commit(status.line());
    printRunAnswer(answer, flags.json);
  } finally {
    if (ticker !== undefined) clearInterval(ticker);
    checkStatus.stop();
    interrupt.stop();
  }
}

/** The retried run, named by id or reference, and what its latest attempt reuses. */
async function retryDefaultsOf(target: string, flags: RunFlags, reference: string) {
  const [{ resolveRunReference }, { readRetryDefaults }] = await Promise.all([import('./run-reference.js'), import('./retry-defaults.js')]);
  flags.retry = await resolveRunReference(resolveProductHome().path, target, reference);
  return readRetryDefaults(resolveProductHome().path, target, flags.retry);
}

/**
 * `--attempts n` with n ≥ 2 (and `--parallel`): a run of several attempts; absent or 1, a run of one,
 * as before. A repeated `--adapter` needs `--attempts`, and no more adapters than attempts; a
 * retry is one attempt of its run (decision 0311).
 */
function attemptsOf(flags: RunFlags): { attempts: number; parallel: number | undefined } | undefined {
  // With --group, --attempts is the group's size and this job runs one of its attempts (run-group.ts).
  if (flags.group !== undefined || flags.index !== undefined) {
    if (flags.parallel !== undefined)
      throw new UsageError('--parallel applies to several attempts on this machine, not to one attempt of a group', 'leave --parallel out');
    return undefined;
  }
  const attempts = flags.attempts === undefined ? 1 : parsePositiveInteger('--attempts', flags.attempts, MOST_ATTEMPTS);
  const parallel = flags.parallel === undefined ? undefined : parsePositiveInteger('--parallel', flags.parallel, MOST_ATTEMPTS);
  if (flags.adapter.length > 1 && flags.attempts === undefined)
    throw new UsageError('--adapter is given more than once; give it once', 'or add --attempts n to spread n attempts over these adapters');
  if (flags.adapter.length > attempts)
    throw new UsageError(`--adapter is given ${flags.adapter.length} times for ${attempts} attempts`, 'give at least as many attempts as adapters');
  if (attempts === 1) {
    if (parallel !== undefined) throw new UsageError('--parallel applies only with --attempts n (n at least 2)', 'add --attempts, or leave --parallel out');
    return undefined;
  }
  if (flags.retry !== undefined)
    throw new UsageError('--attempts cannot be given with --retry', 'a retry is one more attempt of its run; leave --attempts out');
  return { attempts, parallel };
}

/** The most attempts one run starts. */
const MOST_ATTEMPTS = 64;

/** Options that would do nothing as combined: said, not silently ignored. */
function refuseIdleOptions(flags: RunFlags, command: Command): void {
  if (!flags.accept) {
    for (const [key, option] of [
      ['checkDeadline', '--check-deadline'],
      ['suiteDeadline', '--suite-deadline'],
    ] as const) {
      if (command.getOptionValueSource(key) === 'cli')
        throw new UsageError(`${option} applies only with --accept`, `add --accept to judge the attempt, or leave ${option} out`);
    }
  }
  if (flags.retry !== undefined && flags.base !== undefined)
    throw new UsageError('--base cannot be given with --retry', "a retry starts at its run's recorded base; leave --base out");
}

/**
 * The permission mode: `--permissions`, else a retried run's own, else the boundary's default
 * (`sandboxed` inside it). Without the boundary only `strict` exists: asking for more is refused.
 */
function permissionsOf(flags: RunFlags, boundary: BoundaryChoice, retried: PermissionMode | undefined): PermissionMode {
  const given = flags.permissions;
  if (given !== undefined && given !== 'sandboxed' && given !== 'strict')
    throw new UsageError(`--permissions ${given}: no such mode`, 'sandboxed (the default inside the boundary) or strict');
  if (boundary.kind === 'none') {
    if (given === 'sandboxed')
      throw new UsageError(
        '--permissions sandboxed needs the evidence boundary, which is off',
        'without it only strict exists: leave --permissions out or use strict',
      );
    return 'strict';
  }
  return given ?? retried ?? 'sandboxed';
}

/** `--allow` narrows only a strict session: under `sandboxed` every tool is already permitted. */
function checkAllowUnder<T extends { allow: string[] }>(permissions: PermissionMode, options: T): T & { permissions: PermissionMode } {
  if (permissions === 'sandboxed' && options.allow.length > 0)
    throw new UsageError(
      '--allow needs --permissions strict; sandboxed permits every tool',
      'add --permissions strict to allow only these, or use --deny instead',
    );
  return { ...options, permissions };
}

type ResolvedAdapter = Extract<Awaited<ReturnType<typeof resolveAdapterArgument>>, { kind: 'resolved' }>;

/** The adapter `--adapter` names: a known name or a path; refused (exit 3) when absent or unknown. */
async function adapterOf(given: string | undefined, retried?: string): Promise<ResolvedAdapter> {
  const named = given ?? retried;
  if (named === undefined) throw new UsageError('name an adapter with --adapter <name|path>', 'the fixture adapter needs no provider: --adapter fixture');
  const adapter = await resolveAdapterArgument(named);
  if (adapter.kind === 'unknown')
    throw new UsageError(`--adapter ${named}: no adapter of that name`, `known names: ${adapter.known.join(', ')}; or give a path`);
  return adapter;
}

/** What the attempt is asked to do, from the flags; each parse refuses (exit 3) naming its option. */
function runOptionsOf(
  target: string,
  flags: RunFlags,
  adapter: ResolvedAdapter,
  prompt: string | undefined,
  boundary: BoundaryChoice,
): Omit<RunOptions, 'onSpawn' | 'onEvent' | 'signal' | 'accept'> {
  return {
    home: resolveProductHome().path,
    target,
    adapter: adapterOptionOf(flags, adapter),
    ...(flags.provider === undefined ? {} : { provider: flags.provider }),
    ...(prompt === undefined ? {} : { prompt }),
    required: parseTokens('--require', flags.require),
    preferred: parseTokens('--prefer', flags.prefer),
    deadlineMs: parseDuration('--deadline', flags.deadline),
    maxTurns: flags.maxTurns === undefined ? null : parsePositiveInteger('--max-turns', flags.maxTurns, MOST_TURNS),
    allow: flags.allow,
    deny: flags.deny,
    pass: parsePassNames(flags.pass),
    ...(flags.retry === undefined ? {} : { retryOf: flags.retry }),
    ...(flags.base === undefined ? {} : { base: flags.base }),
    ...(flags.spec === undefined ? {} : { spec: flags.spec }),
    ...groupOf(flags, process.env),
    source: process.env,
    boundary,
    ...(flags.allowMissingCredential ? { allowMissingCredential: true } : {}),
  };
}

/** The adapter to plan: its executable, and `--manifest` or the one a known name gives. */
function adapterOptionOf(flags: RunFlags, adapter: ResolvedAdapter): RunOptions['adapter'] {
  return {
    executable: adapter.executable,
    ...(flags.manifest !== undefined ? { manifest: flags.manifest } : adapter.manifest !== undefined ? { manifest: adapter.manifest } : {}),
  };
}

/** With --accept: the per-check status lines, the attempt's own line ended once judging starts. */
function judgingHooks(checkStatus: ReturnType<typeof checkStatusHooks>, status: RunStatus, live: LiveLine | undefined) {
  return {
    ...checkStatus.hooks,
    onJudging: (what: { checks: number }) => {
      if (live !== undefined && status.running) live.commit(status.line());
      status.end();
      checkStatus.hooks.onJudging(what);
    },
  };
}

/** A refusal or failure goes to stderr; with --json, stdout still carries the document. */
function printRunAnswer(answer: Awaited<ReturnType<typeof run>>, json: boolean): void {
  const value = answer.value;
  if ('refused' in value || 'failed' in value) {
    writeHumanLines(process.stderr, answer.human(value), 'statecraft: ');
    if (json) emit(answer, true);
    else process.exitCode = answer.exitCode;
  } else {
    emit(answer, json);
  }
}
