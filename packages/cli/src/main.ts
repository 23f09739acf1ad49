/**
 * The `statecraft` entry point: commander maps argv onto one function per verb; each verb
 * returns an Answer that is rendered as text or JSON (R11). Nothing here decides anything.
 */
import { Command, CommanderError } from 'commander';
import { printJson } from './answer.js';
import { EXIT } from './exit-codes.js';
import { asCliError, errorDocument, UsageError } from './errors.js';
import { registerQualify } from './commands/register-qualify.js';
import { registerRun } from './commands/register-run.js';
import { registerEnv } from './commands/register-env.js';
import { registerDoctor } from './commands/register-doctor.js';
import { registerAccept } from './commands/register-accept.js';
import { registerLand } from './commands/register-land.js';
import { registerPrune } from './commands/register-prune.js';
import { registerExport } from './commands/register-export.js';
import { registerVerify } from './commands/register-verify.js';
import { registerCollect } from './commands/register-collect.js';
import { registerKeys } from './commands/register-keys.js';
import { STATECRAFT_VERSION } from './statecraft-version.js';
import { isRunReference } from './commands/run-reference.js';
import { writeHumanLines } from './render/human-lines.js';
import { terminalSafeValue } from './render/terminal-safe-text.js';

/**
 * A usage error of commander's, safe for a terminal: it quotes the command line (an unknown option,
 * a value it refused), which anyone who composes the command can fill with line breaks and escapes.
 * Every character is made inert, then the one line break commander writes itself, before its
 * suggestion, is put back: a forged one starts a line with `(Did you mean`, never one of its own.
 */
function usageErrorText(text: string): string {
  const safe = terminalSafeValue(text.replace(/^error: /, 'statecraft: ').replace(/\n$/, ''));
  return `${safe.replaceAll('\\u000a(Did you mean ', '\n(Did you mean ')}\n`;
}

const program = new Command('statecraft')
  .description(
    'Supervise coding agents through a provider-neutral adapter, and record — in a tamper-evident ' +
      'chain the agent does not write — an outcome statecraft classifies itself.',
  )
  .version(STATECRAFT_VERSION, '-V, --version', "print statecraft's version")
  .exitOverride()
  .configureOutput({
    writeErr: (text) => process.stderr.write(text),
    // commander's own usage errors read like every other refusal of statecraft's, with what to do next.
    outputError: (text, write) => write(`${usageErrorText(text)}  next: see statecraft --help, or statecraft <verb> --help\n`),
  })
  .addHelpText(
    'after',
    `
Exit codes (every verb):
  0  did what was asked, found nothing wrong
  1  a finding: an attempt not completed, a failed case, an unqualified verdict
  2  refused: a precondition not met, nothing done
  3  usage error
  4  failed: an i/o error (the path is named)

With --json, stdout carries one JSON document whatever the exit: the verb's
answer, or { "refused": { message, ... } }, { "failed": { path, message } } or
{ "usage": { message } }; the sentence for a person still goes to stderr.

Records live in $STATECRAFT_HOME (default ~/.statecraft), never in the target
repository.

A run group over an engine's jobs (see docs/scale-out.md):
  statecraft run . --adapter fixture --accept --prompt-file task.md \\
      --group "$GROUP" --attempts 4 --index 0     one job: attempt 0 of 0..3
  statecraft export . latest -o attempt-0.tar     its bundle, with the candidate
  statecraft collect bundles/*.tar . --trust ci.pub     verify, rank, record
  statecraft land . --group "$GROUP" --bundle bundles/attempt-0.tar \\
      --trust ci.pub                              land the one chosen`,
  );

// Whether the verb being run was asked for --json, read once its options are parsed: on `run` or
// on the subcommand (`run list`/`run show` see the parent's via optsWithGlobals). A verb that
// refuses or fails then still prints one JSON document on stdout (R11); stderr keeps the sentence.
let jsonRequested = false;
program.hook('preAction', async (_program, actionCommand) => {
  // Before any verb loads a package: see zod-jitless.ts. Help and usage errors load neither.
  await import('./zod-jitless.js');
  jsonRequested = actionCommand.optsWithGlobals<{ json?: boolean }>().json === true;
  await refuseEmptyArguments(actionCommand);
});

/**
 * An empty argument (`statecraft run "$REPO"` with REPO unset) is a slip, not the current
 * directory, which node's path resolution would make of it: a verb must not act on wherever the
 * shell happens to be.
 */
async function refuseEmptyArguments(command: Command): Promise<void> {
  for (const [index, argument] of command.registeredArguments.entries()) {
    const given: unknown = command.processedArgs[index];
    if (typeof given === 'string' && given.trim() === '')
      throw new UsageError(`<${argument.name()}> is empty`, EMPTY_ARGUMENT_ADVICE[argument.name()] ?? PATH_ADVICE);
    // A run id has one shape; anything else (`../../x`) is a slip of the command line, not a run the target lacks.
    if (argument.name() === 'run' && typeof given === 'string') await refuseMalformedRunId('<run>', given);
  }
  const retry = command.opts<{ retry?: unknown }>().retry;
  if (typeof retry === 'string') await refuseMalformedRunId('--retry', retry);
}

async function refuseMalformedRunId(where: string, given: string): Promise<void> {
  if (!(await isRunReference(given)))
    throw new UsageError(`${where} ${JSON.stringify(given)} is not a run id`, `${EMPTY_ARGUMENT_ADVICE.run} (like 20261202T024107Z-5e36a1)`);
}

const PATH_ADVICE = 'name a path; for the current directory, give .';

/** What to give instead, for the arguments that are not paths: `.` would only be an unknown id. */
const EMPTY_ARGUMENT_ADVICE: Record<string, string> = {
  run: 'name a run id, as `statecraft run list <target>` prints it',
  id: 'name a record id, as `statecraft qualifications list` prints it',
};

registerQualify(program);
registerRun(program);
registerAccept(program);
registerEnv(program);
registerDoctor(program);
registerLand(program);
registerPrune(program);
registerExport(program);
registerVerify(program);
registerCollect(program);
registerKeys(program);

/** Runs the command line's words (what follows `statecraft`). */
async function main(words: readonly string[]): Promise<void> {
  // Once nothing is left to do (the loop is empty: every write flushed, every child reaped), end
  // at once with the exit code set rather than wait for node's own teardown of the heap, which
  // every command would pay (decision 0072). `exit` listeners still run.
  process.once('beforeExit', () => process.exit());
  // A per-file size limit (RLIMIT_FSIZE) must surface as EFBIG on the write, which names the file and
  // stops the attempt, not as SIGXFSZ: execa's exit cleanup (signal-exit) re-raises that
  // signal when nobody else listens, killing the supervisor before it can kill its adapter's tree.
  process.on('SIGXFSZ', () => undefined);
  // A reader that goes away (`statecraft … | head`) is not a failure of ours: stop quietly. Any
  // other failure to write the answer (a full disk, a closed terminal) is an i/o failure naming
  // stdout: what was recorded stays recorded, and the exit code must not read as a finding.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
    reportUnwritableStdout(error);
  });
  try {
    await program.parseAsync(words, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with code 0; anything else commander refused is usage, and
      // commander has said why on stderr. Its options were never parsed, so --json is read from argv.
      if (error.exitCode !== 0 && argvAsksForJson(words)) {
        const message = error.code === 'commander.help' ? 'a subcommand is needed: the help above lists them' : error.message.replace(/^error: /, '');
        printJson({ usage: { message } });
      }
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    if (isStdoutWriteFailure(error)) return reportUnwritableStdout(error);
    const known = asCliError(error);
    if (known !== undefined) {
      // The message may quote what an adapter, a manifest or a record holds: shown, never obeyed (human-lines.ts).
      writeHumanLines(process.stderr, [known.message], 'statecraft: ');
      if (known.hint !== undefined) writeHumanLines(process.stderr, [known.hint], '  next: ');
      if (jsonRequested) printJson(errorDocument(known));
      process.exitCode = known.exitCode;
    } else {
      writeHumanLines(process.stderr, unexpectedFailureLines(error), 'statecraft: ');
      if (jsonRequested) printJson(errorDocument(error));
      process.exitCode = EXIT.failed;
    }
  }
}

await main(process.argv.slice(2));

/** A write to stdout that failed synchronously (a file or a device on stdout) and reached `main`. */
function isStdoutWriteFailure(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && process.stdout.errored === error;
}

/** Says on stderr that the answer could not be written, and ends with exit 4 (R11). */
function reportUnwritableStdout(error: NodeJS.ErrnoException): never {
  writeHumanLines(process.stderr, [
    `statecraft: stdout: cannot write the answer (${error.code ?? error.message}); what was recorded stays recorded`,
    '  next: free space where stdout goes, or send it elsewhere; `statecraft run list` and `run show` read the records back',
  ]);
  process.exit(EXIT.failed);
}

/** `--json` among the words before a `--`: how a usage error commander raised honours it. */
function argvAsksForJson(words: readonly string[]): boolean {
  const end = words.indexOf('--');
  return (end === -1 ? words : words.slice(0, end)).includes('--json');
}

/** An error no verb turned into an answer: its message on one line (it may quote untrusted text), then its stack's frames. */
function unexpectedFailureLines(error: unknown): string[] {
  if (!(error instanceof Error)) return [`unexpected failure: ${String(error)}`];
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return [`unexpected failure: ${error.name}: ${error.message}`, ...frames];
}
