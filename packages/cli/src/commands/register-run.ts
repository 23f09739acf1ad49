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
import { DEFAULT_CHECK_DEADLINE, DEFAULT_SUITE_DEADLINE } from './register-accept.js';
import type { run, RunOptions } from './run.js';
import { KNOWN_ADAPTERS, resolveAdapterArgument } from './run-adapters.js';
import {
  checkSupervisionOverrides,
  collect,
  MOST_TURNS,
  once,
  parseDuration,
  parsePassNames,
  parsePositiveInteger,
  parseTokens,
  readPrompt,
} from './run-options.js';
import { writeHumanLines } from '../render/human-lines.js';
import { registerRunRead } from './register-run-read.js';
import { targetOrCurrentRepository } from './default-target.js';
import { targetAndRun } from './target-and-run.js';
import { resolveRunReference } from './run-reference.js';
import { readRetryDefaults, withRetryDefaults } from './retry-defaults.js';
import { signingKeyOrRefusal, trustedKeysOrRefusal } from './signing-options.js';
import { registerRunReconcile } from './register-run-reconcile.js';

interface RunFlags {
  spec?: string;
  prompt?: string;
  promptFile?: string;
  adapter?: string;
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

/** Registers `run`, `run list`, `run show` and `run reconcile` (R8, R11). Computing is in run.ts / run-show.ts. */
export function registerRun(program: Command): void {
  const runCommand = registerRunVerb(program);
  registerRunList(runCommand);
  registerRunShow(runCommand);
  registerRunRead(runCommand);
  registerRunReconcile(runCommand);
}

/** `run`: its options, help and examples; the action is `runFromFlags`. */
function registerRunVerb(program: Command): Command {
  return program
    .command('run')
    .summary('run an agent against a repository through an adapter, and record what happened')
    .description(
      'Run one attempt: a git worktree of <target> at a recorded base commit, a constructed environment, ' +
        "an intent fsync'd to the chain before the adapter starts, the adapter supervised to its deadline, and an " +
        'outcome statecraft classifies itself. Records go to $STATECRAFT_HOME (default ~/.statecraft).',
    )
    .enablePositionalOptions()
    .argument('[target]', 'the git repository to work on (default: the one containing the current directory)')
    .option('--prompt <text>', "the prompt (sent on the adapter's stdin, never in argv)", once('--prompt'))
    .option('--prompt-file <file>', 'read the prompt from a file (- reads stdin; at most 64 MiB)', once('--prompt-file'))
    .option('--adapter <name|path>', `a known adapter (${Object.keys(KNOWN_ADAPTERS).join(', ')}) or the path of an adapter executable`, once('--adapter'))
    .option('--manifest <file>', "the adapter's manifest, when it is not beside the executable", once('--manifest'))
    .option('--provider <path>', 'the provider executable the adapter should run', once('--provider'))
    .option('--spec <id>', 'the spec the run works from (its checks feed command coverage)', once('--spec'))
    .option('--require <token>', 'a capability the adapter must declare (repeatable)', collect, [])
    .option('--prefer <token>', 'a capability wanted but not required (repeatable)', collect, [])
    .option('--deadline <duration>', 'how long the attempt may run, from the start of the adapter (e.g. 90s, 30m; at most 8760h)', once('--deadline'), '30m')
    .option('--max-turns <n>', `a turn cap carried in the request (at most ${MOST_TURNS})`, once('--max-turns'))
    .option('--allow <rule>', 'a tool rule allowed, e.g. "Bash(npm test:*)" (repeatable)', collect, [])
    .option('--deny <rule>', 'a tool rule denied; a denied call leaves a refusal record (repeatable)', collect, [])
    .option('--pass <name>', 'an environment name to carry into the child (never a credential family; repeatable)', collect, [])
    .option('--retry <run>', 'a new attempt of a run (its id, a unique start, or latest), in its workspace and at its base', once('--retry'))
    .option('--base <revision>', 'the revision the workspace starts from (default HEAD)', once('--base'))
    .option(
      '--boundary <mode>',
      'the protected evidence boundary: bwrap (default) or none, recorded and labelled (also STATECRAFT_BOUNDARY)',
      once('--boundary'),
    )
    .option(
      '--permissions <mode>',
      'what the agent may do inside the boundary: sandboxed (default; every tool but the --deny ones) or strict (only --allow ones; the only mode with --boundary none)',
      once('--permissions'),
    )
    .option('--expose <path>', 'a path of a hidden home shown read-only inside the boundary, e.g. ~/.config/tool (repeatable)', collect, [])
    .option('--trust <public-key>', 'label the adapter qualified only by a record this key signed (repeatable; also STATECRAFT_TRUSTED_KEYS)', collect, [])
    .option('--allow-missing-credential', "start the adapter even when the credential it declares is absent (it then fails in the provider's words)", false)
    .option('--accept', 'judge the attempt once it ends: the checks read at the base, over its candidate (see statecraft accept)', false)
    .option('--check-deadline <duration>', 'with --accept: how long each check may run', once('--check-deadline'), DEFAULT_CHECK_DEADLINE)
    .option('--suite-deadline <duration>', 'with --accept: how long the whole suite may run', once('--suite-deadline'), DEFAULT_SUITE_DEADLINE)
    .option('--json', 'print one JSON document instead of text', false)
    .addHelpText(
      'after',
      `
Examples:
  statecraft run ./repo --adapter fixture --prompt 'scenario: refuse'
  statecraft run ./repo --adapter fixture --accept \\
      --prompt $'scenario: write\\npath: answer.txt\\ntext: 42'
  statecraft run ./repo --adapter ./my-adapter --prompt-file task.md \\
      --deadline 10m --json
  statecraft run list ./repo
  statecraft run show ./repo <run-id> --attempt 2
  statecraft run --retry latest          again: same adapter, prompt, limits

JSON: the attempt's account, the value \`run show --json\` prints (runId,
attempt, outcome, cause, commits, posture, artifacts, ...); a refusal before
the spawn is { refused: { stage, reason, message, detail } }.
Kept files: the stream, stderr and each check's output stop at
STATECRAFT_KEEP_BOUND (default 1GiB; e.g. 256MiB): an adapter or check that
writes past it is stopped there, interrupted (evidence-bound).
Exit: 0 completed; 1 another outcome (refused, interrupted, failed,
cancelled), or a required capability the init did not apply; 2 refused
before spawn, nothing appended; 3 usage; 4 an i/o error writing records.
With --accept: 0 only when accepted, 1 any other verdict; the JSON gains
\`acceptance\`.`,
    )
    .action(runFromFlags);
}

/** `run list`: every attempt of a target, read-only. */
function registerRunList(runCommand: Command): void {
  runCommand
    .command('list')
    .description('List every attempt recorded for <target>, read-only from its chain; a broken link refuses (exit 2).')
    .argument('[target]', 'the git repository (default: the one containing the current directory)')
    .option('--json', 'print one JSON document instead of text', false)
    .addHelpText(
      'after',
      `
Examples:
  statecraft run list ./repo             every attempt: run id, attempt,
                                         outcome, time taken, verdict, cost,
                                         adapter, qualification
  statecraft run list                    the repository you are in
  statecraft run list ./repo --json

JSON: { target, chain, tornTail, attempts }: each attempt a { runId, attempt,
state, outcome, cause, refusalCount, cost, timedOut, startedAt, concludedAt,
adapter, qualification, acceptance }.
Exit: 0 listed; 2 refused (a broken chain).`,
    )
    .action(async (given: string | undefined, _flags: { json: boolean }, command: Command) => {
      const json = wantsJson(command);
      const { runList } = await import('./run-show.js');
      const answer = await runList({ home: resolveProductHome().path, target: await targetOrCurrentRepository(given), json });
      emit(answer, json);
    });
}

/** `run show`: one attempt's account, its kept files re-digested and its outcome read again. */
function registerRunShow(runCommand: Command): void {
  runCommand
    .command('show')
    .description("Show one attempt's account (the same value `run --json` printed). Default: the run's latest attempt.")
    .usage('[target] <run> [options]')
    .argument('[target]', 'the git repository (default: the one containing the current directory)')
    .argument('[run]', 'the run: its id, a unique start of it, or latest')
    .option('--attempt <n>', 'which attempt of the run')
    .option('--posture', 'the whole account in text: posture, residuals, coverage, records and their checks', false)
    .option('--verbose', 'the same as --posture', false)
    .option('--html', "write the reviewer's page: one self-contained HTML file", false)
    .option('-o, --output <file>', 'with --html: where to write the page (- for stdout)', once('-o'))
    .option('--json', 'print one JSON document instead of text', false)
    .addHelpText(
      'after',
      `
Examples:
  statecraft run list ./repo             find the run id
  statecraft run show ./repo <run-id>    its latest attempt
  statecraft run show latest             the latest run, in this repository
  statecraft run show ./repo 20261202T0  a unique start of a run id
  statecraft run show ./repo <run-id> --posture
                                         all of it: posture, residuals,
                                         coverage, records and their checks
  statecraft run show ./repo <run-id> --attempt 1 --json
  statecraft run show latest --html      the reviewer's page, written to
                                         ./statecraft-<run>-attempt-<n>.html
  statecraft run show latest --html -o page.html

JSON: the attempt's account, the value \`run --json\` printed (runId, attempt,
state, outcome, cause, commits, posture, artifacts, ...), with artifactCheck
(each kept file re-digested: verified, altered, missing), outcomeCheck (the
outcome classified again from the kept stream: agrees, disagrees, not-checked),
headIs and recordDisagreements (each record whose copy of the kept request or
result differs from the file: record, line, file, fields; doctor's comparison).
Exit: 0 completed, every kept file as the chain sealed it, the outcome what its
stream gives and every record agreeing with the kept files it copies; 1 another
outcome, none recorded, an altered or missing kept file, a disagreeing outcome
or a disagreeing record, or a required capability not applied; 2 refused (no
such run or attempt, a broken chain). With --html the same, once the page is
written; --json then adds page { path, bytes }.`,
    )
    .action(
      async (
        first: string | undefined,
        second: string | undefined,
        flags: { attempt?: string; posture: boolean; verbose: boolean; html: boolean; output?: string },
        command: Command,
      ) => {
        const home = resolveProductHome().path;
        if (flags.output !== undefined && !flags.html) throw new UsageError('-o applies only with --html', 'add --html to write the page');
        const options = {
          home,
          ...(await targetAndRun(home, first, second)),
          ...(flags.attempt === undefined ? {} : { attempt: parsePositiveInteger('--attempt', flags.attempt, Number.MAX_SAFE_INTEGER) }),
        };
        if (flags.html) {
          const { runShowPage } = await import('./run-show-page.js');
          emit(
            await runShowPage({ ...options, ...(flags.output === undefined ? {} : { output: flags.output }), json: wantsJson(command) }),
            wantsJson(command),
          );
          return;
        }
        const { runShow } = await import('./run-show.js');
        const answer = await runShow({ posture: flags.posture || flags.verbose, ...options });
        emit(answer, wantsJson(command));
      },
    );
}

/** `run`'s action: the flags checked and parsed, the attempt run with its live status line, the answer printed. */
async function runFromFlags(given: string | undefined, flags: RunFlags, command: Command): Promise<void> {
  const target = await targetOrCurrentRepository(given);
  refuseIdleOptions(flags, command);
  if (flags.retry !== undefined) flags.retry = await resolveRunReference(resolveProductHome().path, target, flags.retry);
  // A retry reuses its run's adapter, prompt and limits, each unless given here (retry-defaults.ts).
  const retried = flags.retry === undefined ? undefined : await readRetryDefaults(resolveProductHome().path, target, flags.retry);
  const adapter = await adapterOf(flags, retried?.adapter);
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
  // A key file that cannot sign is refused before the attempt, not after it at the judgement.
  if (flags.accept) await signingKeyOrRefusal(resolveProductHome().path, process.env);
  const status = new RunStatus();
  const live = flags.json ? undefined : liveLineFor(process.stdout);
  const checkDeadlineMs = parseDuration('--check-deadline', flags.checkDeadline);
  const suiteDeadlineMs = parseDuration('--suite-deadline', flags.suiteDeadline);
  const checkStatus = checkStatusHooks(live);
  const ticker = live === undefined ? undefined : setInterval(() => status.running && live.show(status.line()), 250);
  // The operator's interrupt cancels the attempt (R8.1): its tree is killed and the outcome recorded.
  const interrupt = listenForOperatorInterrupt();
  try {
    const { run } = await import('./run.js');
    const answer = await run({
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
    });
    if (live !== undefined && status.running) live.commit(status.line());
    printRunAnswer(answer, flags.json);
  } finally {
    if (ticker !== undefined) clearInterval(ticker);
    checkStatus.stop();
    interrupt.stop();
  }
}

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
async function adapterOf(flags: RunFlags, retried?: string): Promise<ResolvedAdapter> {
  const named = flags.adapter ?? retried;
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
    adapter: {
      executable: adapter.executable,
      ...(flags.manifest !== undefined ? { manifest: flags.manifest } : adapter.manifest !== undefined ? { manifest: adapter.manifest } : {}),
    },
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
    source: process.env,
    boundary,
    ...(flags.allowMissingCredential ? { allowMissingCredential: true } : {}),
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

/** `--json` may land on `run` or on the subcommand (commander parses the parent's options too). */
function wantsJson(command: Command): boolean {
  return command.optsWithGlobals<{ json?: boolean }>().json === true;
}
