import { readBoundaryChoice, readExposedPaths } from '@statecraft/environment';
import { checkProductHomeWritable, resolveProductHome } from '@statecraft/records';
import { emit } from '../answer.js';
import { UsageError } from '../errors.js';
import { listenForOperatorInterrupt } from '../operator-interrupt.js';
import { checkStatusHooks } from '../render/check-status.js';
import { writeHumanLines } from '../render/human-lines.js';
import { liveLineFor } from '../render/live-line.js';
import { accept } from './accept.js';
import { parseDuration, parsePositiveInteger } from './option-parsers.js';
import { checkSupervisionOverrides } from './run-options.js';
import { refuseSigningKeyInReach } from './signing-options.js';
import { targetAndRun } from './target-and-run.js';

/** The options commander hands `accept`'s action, as parsed from argv. */
export type AcceptFlags = {
  attempt?: string;
  checkDeadline: string;
  suiteDeadline: string;
  boundary?: string;
  expose: string[];
  json: boolean;
  verbose: boolean;
};

/** `accept`'s action: the flags checked, the attempt judged with each check's status shown live, the answer printed. */
export async function acceptFromFlags(first: string | undefined, second: string | undefined, flags: AcceptFlags): Promise<void> {
  const { target, runId } = await targetAndRun(resolveProductHome().path, first, second);
  const checkDeadlineMs = parseDuration('--check-deadline', flags.checkDeadline);
  const suiteDeadlineMs = parseDuration('--suite-deadline', flags.suiteDeadline);
  const attempt = flags.attempt === undefined ? undefined : parsePositiveInteger('--attempt', flags.attempt, Number.MAX_SAFE_INTEGER);
  const choice = readBoundaryChoice(flags.boundary, process.env);
  if (choice.kind === 'invalid') throw new UsageError(choice.message);
  const exposed = readExposedPaths(flags.expose, choice, resolveProductHome().path);
  if (exposed.kind === 'invalid') throw new UsageError(exposed.message);
  refuseSigningKeyInReach(process.env, exposed.choice, resolveProductHome().path);
  const boundary = exposed.choice;
  checkSupervisionOverrides();
  checkProductHomeWritable(resolveProductHome().path);
  const status = checkStatusHooks(flags.json ? undefined : liveLineFor(process.stdout));
  const interrupt = listenForOperatorInterrupt();
  try {
    const answer = await accept({
      home: resolveProductHome().path,
      target,
      runId,
      ...(attempt === undefined ? {} : { attempt }),
      checkDeadlineMs,
      suiteDeadlineMs,
      source: process.env,
      boundary,
      signal: interrupt.signal,
      hooks: status.hooks,
      verbose: flags.verbose,
    });
    if ('refused' in answer.value || 'failed' in answer.value) writeHumanLines(process.stderr, answer.human(answer.value), 'statecraft: ');
    if (!flags.json && ('refused' in answer.value || 'failed' in answer.value)) process.exitCode = answer.exitCode;
    else emit(answer, flags.json);
  } finally {
    status.stop();
    interrupt.stop();
  }
}
