import { CliError, IoFailure, UsageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { loadRecords } from './load-packages.js';

/** How many candidates an ambiguous prefix names before it says how many more there are. */
const NAMED_CANDIDATES = 8;

/**
 * Whether a command-line word can name a run: a whole run id, `latest`, or the start of one (the
 * characters a run id holds). Anything else (`../x`) is a slip of the command line, refused as
 * usage before any record is read.
 */
export async function isRunReference(text: string): Promise<boolean> {
  const { isRunId } = await loadRecords();
  return text === 'latest' || isRunId(text) || /^[0-9TZ][0-9a-fTZ-]{0,22}$/.test(text);
}

/**
 * The run id a reference names in the target's chain: a whole id as given (its records are then
 * looked up by the verb, as before); `latest` the run of the last intent in the chain; a prefix
 * the one run whose id starts with it. Two or more runs under one prefix is a usage error (exit 3)
 * naming them; none is a refusal (exit 2) naming what was looked for, as an unknown id is.
 */
export async function resolveRunReference(home: string, target: string, reference: string): Promise<string> {
  const { isRunId, openTargetSummaries } = await loadRecords();
  if (!(await isRunReference(reference))) throw new UsageError(`${JSON.stringify(reference)} names no run`, RUN_REFERENCE_ADVICE);
  if (isRunId(reference)) return reference;
  const runIds: string[] = [];
  const seen = new Set<string>();
  // The run the last intent began or retried: the one most recently attempted.
  let latest: string | undefined;
  const records = await openTargetSummaries(home, target, ({ record }) => {
    if (record.kind !== 'intent') return;
    latest = record.runId;
    if (seen.has(record.runId)) return;
    seen.add(record.runId);
    runIds.push(record.runId);
  });
  if (records.kind === 'refused')
    throw new CliError(`refused: ${records.message}`, EXIT.refused, { hint: 'statecraft doctor reports every chain; nothing was repaired' });
  if (records.kind === 'failed') throw new IoFailure(records.path, records.message);
  if (records.kind === 'unknown-target') throw new CliError(`refused: ${records.message}`, EXIT.refused, { hint: 'give the path of the repository' });
  if (reference === 'latest') {
    if (latest === undefined) throw new CliError(`refused: ${records.target} has no run yet (looked for the latest)`, EXIT.refused, { hint: NO_RUN_HINT });
    return latest;
  }
  const matching = runIds.filter((runId) => runId.startsWith(reference));
  const [only] = matching;
  if (only !== undefined && matching.length === 1) return only;
  if (matching.length === 0)
    throw new CliError(`refused: no run of ${records.target} has an id starting ${reference}`, EXIT.refused, {
      hint: `statecraft run list ${records.target}`,
    });
  const named = matching.slice(-NAMED_CANDIDATES).join(', ');
  const more = matching.length > NAMED_CANDIDATES ? ` and ${String(matching.length - NAMED_CANDIDATES)} more` : '';
  throw new UsageError(`run ${reference} is ambiguous: ${String(matching.length)} runs start with it (${named}${more})`, 'give more of the run id');
}

const NO_RUN_HINT = 'start one with statecraft run <target> --adapter <name|path> --prompt <text>';

export const RUN_REFERENCE_ADVICE = 'name a run id as `statecraft run list` prints it, a unique start of one, or latest';
