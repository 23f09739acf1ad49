import type { Command } from 'commander';
import { resolveProductHome } from '@statecraft/records';
import { emit } from '../answer.js';
import { parsePositiveInteger } from './run-options.js';
import { runDiff } from './run-diff.js';
import { runLog } from './run-log.js';
import { targetAndRun } from './target-and-run.js';

type ReadFlags = { attempt?: string; json: boolean };

/** Registers `run diff` and `run log` under `run`: what an attempt changed, and what it did. */
export function registerRunRead(runCommand: Command): void {
  registerRunDiff(runCommand);
  registerRunLog(runCommand);
}

/** The arguments and options both verbs share: `[target] <run>`, `--attempt`, `--json`. */
function readCommand(runCommand: Command, name: string): Command {
  return runCommand
    .command(name)
    .usage('[target] <run> [options]')
    .argument('[target]', 'the git repository (default: the one containing the current directory)')
    .argument('[run]', 'the run: its id, a unique start of it, or latest')
    .option('--attempt <n>', 'which attempt of the run (default: its latest)')
    .option('--json', 'print one JSON document instead of text', false);
}

async function readOptions(first: string | undefined, second: string | undefined, flags: ReadFlags) {
  const home = resolveProductHome().path;
  return {
    home,
    ...(await targetAndRun(home, first, second)),
    ...(flags.attempt === undefined ? {} : { attempt: parsePositiveInteger('--attempt', flags.attempt, Number.MAX_SAFE_INTEGER) }),
  };
}

const wantsJson = (command: Command): boolean => command.optsWithGlobals<{ json?: boolean }>().json === true;

function registerRunDiff(runCommand: Command): void {
  readCommand(runCommand, 'diff')
    .description(
      "Show what an attempt changed: its candidate commit against the base commit its intent recorded, read with git (no diff program or filter the repository names is run). Default: the run's latest attempt.",
    )
    .addHelpText(
      'after',
      `
Examples:
  statecraft run diff latest             the latest run, in this repository
  statecraft run diff ./repo 20261202T0  a unique start of a run id
  statecraft run diff ./repo <run-id> --attempt 1 --json

JSON: { target, runId, attempt, baseCommit, candidate, files, patch }:
candidate { state: identified, commit, madeBy } or { state, reason }; each
file a { path, status, additions, deletions }.
Exit: 0 compared; 1 the attempt has no candidate (not completed, or not
identified: said with why); 2 refused (no such run, a broken chain, a
candidate git cannot read); 3 usage (an ambiguous start of a run id).`,
    )
    .action(async (first: string | undefined, second: string | undefined, flags: ReadFlags, command: Command) => {
      emit(await runDiff(await readOptions(first, second, flags)), wantsJson(command));
    });
}

function registerRunLog(runCommand: Command): void {
  readCommand(runCommand, 'log')
    .description(
      "Show what an attempt did, as a timeline: its prompt, then each event of its kept stream (messages, tool calls with their commands, refusals, the result). The stream is read from the product home and shown only if its digest is the one the chain sealed. Default: the run's latest attempt.",
    )
    .addHelpText(
      'after',
      `
Examples:
  statecraft run log latest              the latest run, in this repository
  statecraft run log ./repo 20261202T0   a unique start of a run id
  statecraft run log ./repo <run-id> --attempt 2 --json

JSON: { target, runId, attempt, outcome, cause, prompt, stream, events,
omitted }: stream { path, state: verified|altered|missing|not-recorded };
each event a { line, type, seq, kind, tools, text, command, cut }.
Exit: 0 shown, the stream and prompt as sealed; 1 a kept file altered,
missing or not recorded (nothing of it shown); 2 refused (no such run, a
broken chain); 3 usage (an ambiguous start of a run id).`,
    )
    .action(async (first: string | undefined, second: string | undefined, flags: ReadFlags, command: Command) => {
      emit(await runLog(await readOptions(first, second, flags)), wantsJson(command));
    });
}
