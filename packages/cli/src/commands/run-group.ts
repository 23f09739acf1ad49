import type { RunGroup } from '@statecraft/records';
import { UsageError } from '../errors.js';
import { parsePositiveInteger } from './option-parsers.js';

/** The most attempts a group or a run holds: far beyond any engine's job count, well inside a record. */
const MOST_ATTEMPTS = 10_000;

/** The variable a Kubernetes Indexed Job sets in each pod: its 0-based completion index. */
const ENGINE_INDEX = 'JOB_COMPLETION_INDEX';

/**
 * The run group `--group`, `--index` and `--attempts` name (decision 0321): the index is 0-based,
 * as the engines number their jobs, and is read from $JOB_COMPLETION_INDEX when `--index` is
 * absent. Each combination that would do something else than the operator meant is a usage error.
 */
export function groupOf(
  flags: { attempts?: string; group?: string; index?: string; retry?: string },
  environment: Readonly<Record<string, string | undefined>>,
): { group?: RunGroup } {
  const attempts = flags.attempts === undefined ? undefined : parsePositiveInteger('--attempts', flags.attempts, MOST_ATTEMPTS);
  if (flags.group === undefined) {
    if (flags.index !== undefined) throw new UsageError('--index needs --group', 'name the run group the attempts share: --group <id>');
    return {};
  }
  if (!/^[A-Za-z0-9._-]{1,128}$/.test(flags.group))
    throw new UsageError(`--group ${JSON.stringify(flags.group)}: not a group id`, 'use at most 128 letters, digits, dots, dashes and underscores');
  if (flags.retry !== undefined) throw new UsageError('--group cannot be given with --retry', 'a group attempt starts a new run; leave --retry out');
  const fromEnvironment = environment[ENGINE_INDEX];
  const indexText = flags.index ?? (fromEnvironment === undefined || fromEnvironment === '' ? undefined : fromEnvironment);
  if (indexText === undefined)
    throw new UsageError('--group needs --index', `give the attempt's index, 0 to N-1 (--index <i>, or ${ENGINE_INDEX} as an Indexed Job sets it)`);
  const from = flags.index === undefined ? ENGINE_INDEX : '--index';
  if (attempts === undefined) throw new UsageError(`${from} needs --attempts`, 'say how many attempts the group holds: --attempts <n>');
  if (!/^\d+$/.test(indexText)) throw new UsageError(`${from} ${JSON.stringify(indexText)}: must be a whole number from 0`);
  const index = Number(indexText);
  if (index >= attempts)
    throw new UsageError(`${from} ${index}: not below --attempts ${attempts}`, `the index of a group of ${attempts} is 0 to ${attempts - 1}`);
  return { group: { id: flags.group, index, of: attempts } };
}
