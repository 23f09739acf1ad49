import type { Command } from 'commander';
import { emit } from '../answer.js';
import { UsageError } from '../errors.js';
import { DEFAULT_CHECK_DEADLINE, DEFAULT_SUITE_DEADLINE } from './register-accept.js';
import { KNOWN_ADAPTER_NAMES } from './run-adapters.js';
import { collect, MOST_TURNS, once, parsePositiveInteger } from './option-parsers.js';
import { registerRunRead } from './register-run-read.js';
import { targetOrCurrentRepository } from './default-target.js';
import { targetAndRun } from './target-and-run.js';
import { registerRunReconcile } from './register-run-reconcile.js';
import { productHomePath } from './load-packages.js';
import type { RunFlags } from './run-from-flags.js';

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
    .option(
      '--adapter <name|path>',
      `a known adapter (${KNOWN_ADAPTER_NAMES.join(', ')}) or the path of an adapter executable (repeatable with --attempts: round robin)`,
      collect,
      [],
    )
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
    .option('--group <id>', 'the run group this attempt is one of, when an engine spreads the attempts over its jobs (needs --index)', once('--group'))
    .option(
      '--index <i>',
      'with --group and --attempts N: which attempt of the group this job runs, 0 to N-1 (default: $JOB_COMPLETION_INDEX)',
      once('--index'),
    )
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
    .option('--attempts <n>', 'run n attempts of this run, each in its own worktree and branch, and choose one on the records', once('--attempts'))
    .option('--parallel <k>', 'with --attempts: at most k at a time (default n, bounded by the cores and memory)', once('--parallel'))
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
  statecraft run ./repo --adapter claude-code --adapter codex \\
      --attempts 4 --accept --prompt-file task.md
                                         four attempts, two of each, judged,
                                         one chosen: then statecraft land
  statecraft run . --adapter fixture --accept --prompt-file task.md \\
      --group "$GROUP" --attempts 3 --index 0
                                         attempt 0 of 3 of a group spread
                                         over an engine's jobs; then
                                         statecraft export, statecraft collect

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
\`acceptance\`. With --attempts n: the table of attempts, the chosen one marked;
exit 0 when the chosen attempt completed (accepted, with --accept), else 1;
the JSON is { runId, attempts, selection, ... }.`,
    )
    .action(async (given: string | undefined, flags: RunFlags, command: Command) => (await import('./run-from-flags.js')).runFromFlags(given, flags, command));
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
      const answer = await runList({ home: await productHomePath(), target: await targetOrCurrentRepository(given), json });
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
        const home = await productHomePath();
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

/** `--json` may land on `run` or on the subcommand (commander parses the parent's options too). */
function wantsJson(command: Command): boolean {
  return command.optsWithGlobals<{ json?: boolean }>().json === true;
}
