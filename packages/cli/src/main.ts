/**
 * The `statecraft` entry point: commander maps argv onto one function per verb; each verb
 * returns an Answer that is rendered as text or JSON (R11). Nothing here decides anything.
 */
import { Command, CommanderError } from 'commander';
import { EXIT } from './exit-codes.js';
import { CliError } from './errors.js';
import { registerQualify } from './commands/register-qualify.js';
import { registerRun } from './commands/register-run.js';
import { registerEnv } from './commands/register-env.js';
import { registerDoctor } from './commands/register-doctor.js';

// A reader that goes away (`statecraft … | head`) is not a failure of ours: stop quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
  throw error;
});

const program = new Command('statecraft')
  .description(
    'Supervise coding agents through a provider-neutral adapter, and record — in a tamper-evident ' +
      'chain the agent does not write — an outcome statecraft classifies itself.',
  )
  .exitOverride()
  .configureOutput({ writeErr: (text) => process.stderr.write(text) })
  .addHelpText(
    'after',
    `
Exit codes (every verb):
  0  did what was asked, found nothing wrong
  1  a finding: an attempt not completed, a failed case, an unqualified verdict
  2  refused: a precondition not met, nothing done
  3  usage error
  4  failed: an i/o error (the path is named)

Records live in $STATECRAFT_HOME (default ~/.statecraft), never in the target repository.`,
  );

registerQualify(program);
registerRun(program);
registerEnv(program);
registerDoctor(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version end here with code 0; anything else commander refused is usage.
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else if (error instanceof CliError) {
    process.stderr.write(`statecraft: ${error.message}\n`);
    if (error.hint !== undefined) process.stderr.write(`  next: ${error.hint}\n`);
    process.exitCode = error.exitCode;
  } else {
    process.stderr.write(`statecraft: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = EXIT.failed;
  }
}
