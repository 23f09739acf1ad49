import { foldAttempts, openTargetRecords, type AttemptAccount, type OpenedTargetRecords } from '@statecraft/records';
import { CliError, IoFailure } from '../errors.js';
import { EXIT } from '../exit-codes.js';

/**
 * One attempt's account, read-only from the target's verified chain, for the verbs that read one
 * attempt (`run diff`, `run log`): the run's latest attempt unless one is named. A broken chain, an
 * unknown target, run or attempt is refused (exit 2), as `run show` refuses them.
 */
export async function attemptOfRun(options: {
  home: string;
  target: string;
  runId: string;
  attempt?: number;
  records?: OpenedTargetRecords;
}): Promise<AttemptAccount> {
  const account = await findAttemptOfRun(options);
  if (account === undefined)
    throw new CliError(`refused: run ${options.runId} has no record for ${options.target}`, EXIT.refused, { hint: `statecraft run list ${options.target}` });
  return account;
}

/** The same, with a run the chain does not hold answered as undefined: for a caller that refuses it in its own words. */
export async function findAttemptOfRun(options: {
  home: string;
  target: string;
  runId: string;
  attempt?: number;
  /** The target's records as the caller opened them: not opened and verified again. */
  records?: OpenedTargetRecords;
}): Promise<AttemptAccount | undefined> {
  const records = options.records ?? (await openTargetRecords(options.home, options.target));
  if (records.kind === 'refused')
    throw new CliError(`refused: ${records.message}`, EXIT.refused, { hint: 'statecraft doctor reports every chain; nothing was repaired' });
  if (records.kind === 'failed') throw new IoFailure(records.path, records.message);
  if (records.kind === 'unknown-target') throw new CliError(`refused: ${records.message}`, EXIT.refused, { hint: 'give the path of the repository' });
  const ofRun = foldAttempts(records.chain, records.targetDirectory, records.entries, records.live).filter((account) => account.runId === options.runId);
  if (ofRun.length === 0) return undefined;
  const account = options.attempt === undefined ? ofRun.at(-1) : ofRun.find((candidate) => candidate.attempt === options.attempt);
  if (account === undefined)
    throw new CliError(
      `refused: run ${options.runId} has no attempt ${String(options.attempt)} (attempts: ${ofRun.map((a) => a.attempt).join(', ')})`,
      EXIT.refused,
    );
  return account;
}
