import type { Command } from 'commander';
import type { Answer } from '../answer.js';
import { parsePositiveInteger } from './option-parsers.js';
import { registerVerb } from './register-verb.js';
import type { runDiff } from './run-diff.js';
import type { runLog } from './run-log.js';
import { targetAndRun } from './target-and-run.js';

interface ReadFlags {
  attempt?: string;
}

/** What one reading verb of a run computes from: the home, the target, the run and which attempt. */
type ReadOptions = Awaited<ReturnType<typeof readOptions>>;

/** One verb that reads one attempt of a run, named by `[target] <run>` and `--attempt`: how it registers. */
function readVerb<Value>(verb: { name: string; description: string; help: string; answer: (options: ReadOptions) => Promise<Answer<Value>> }) {
  return (runCommand: Command): Command =>
    registerVerb<ReadFlags, Value>(runCommand, {
      name: verb.name,
      description: verb.description,
      usage: '[target] <run> [options]',
      arguments: [
        ['[target]', 'the git repository (default: the one containing the current directory)'],
        ['[run]', 'the run: its id, a unique start of it, or latest'],
      ],
      options: [['--attempt <n>', 'which attempt of the run (default: its latest)']],
      help: verb.help,
      answer: async ([first, second], flags, home) => verb.answer(await readOptions(home, first, second, flags)),
    });
}

/** `run diff` and `run log`. */
const READ_VERBS = [
  readVerb({
    name: 'diff',
    description:
      "Show what an attempt changed: its candidate commit against the base commit its intent recorded, read with git (no diff program or filter the repository names is run). Default: the run's latest attempt.",
    help: `
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
    // Each verb's code is loaded when it runs, not at every start.
    answer: async (options: Parameters<typeof runDiff>[0]) => (await import('./run-diff.js')).runDiff(options),
  }),
  readVerb({
    name: 'log',
    description:
      "Show what an attempt did, as a timeline: its prompt, then each event of its kept stream (messages, tool calls with their commands, refusals, the result). The stream is read from the product home and shown only if its digest is the one the chain sealed. Default: the run's latest attempt.",
    help: `
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
    answer: async (options: Parameters<typeof runLog>[0]) => (await import('./run-log.js')).runLog(options),
  }),
];

/** Registers `run diff` and `run log` under `run`: what an attempt changed, and what it did. */
export function registerRunRead(runCommand: Command): void {
  for (const register of READ_VERBS) register(runCommand);
}

async function readOptions(home: string, first: string | undefined, second: string | undefined, flags: ReadFlags) {
  return {
    home,
    ...(await targetAndRun(home, first, second)),
    ...(flags.attempt === undefined ? {} : { attempt: parsePositiveInteger('--attempt', flags.attempt, Number.MAX_SAFE_INTEGER) }),
  };
}
