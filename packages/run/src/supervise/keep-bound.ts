/**
 * How many bytes of each evidence file an attempt or check may leave (the kept stream, stderr, a
 * check's output). Nothing else bounds them: an agent's flood, or a candidate's test that loops on
 * `yes`, would otherwise fill the product home's file system, and every later run of every target
 * would then fail to write its intent (decision 0046). Past the
 * bound the attempt or check is stopped at once, as at its deadline, and the file holds exactly
 * the bytes that were read: its digest and the stream's classification stay those of the file.
 */
const KEEP_BOUND_VARIABLE = 'STATECRAFT_KEEP_BOUND';

/** 1 GiB: hundreds of times any real session's stream, a few seconds of a flood. */
const DEFAULT_KEEP_BOUND_BYTES = 1024 ** 3;

const SMALLEST = 1024;
const LARGEST = 1024 ** 4;
const UNITS: Readonly<Record<string, number>> = { '': 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, TiB: 1024 ** 4 };

/**
 * The bound from the supervisor's environment (`STATECRAFT_KEEP_BOUND`: bytes, or a whole number of
 * KiB, MiB, GiB or TiB), read strictly as the containment override is: a misspelt value silently
 * ignored would leave a home unbounded that its operator believes bounded. Unset or empty: 1 GiB.
 */
export function readKeepBound(environment: Readonly<Record<string, string | undefined>> = process.env): number {
  const value = environment[KEEP_BOUND_VARIABLE];
  if (value === undefined || value === '') return DEFAULT_KEEP_BOUND_BYTES;
  const match = /^(\d{1,16})(KiB|MiB|GiB|TiB)?$/.exec(value);
  const bytes = match === null ? Number.NaN : Number(match[1]) * UNITS[match[2] ?? '']!;
  if (!(bytes >= SMALLEST && bytes <= LARGEST))
    throw new Error(`${KEEP_BOUND_VARIABLE}=${value} is not understood; give a number of bytes from 1KiB to 1TiB, e.g. 512MiB or 4GiB`);
  return bytes;
}
