/**
 * The negative suite as data (R4): one table every adapter runs, and the version it carries. Any
 * change to a case — its title, its guarantee or what its check accepts — mints a new version, so a
 * qualification record names exactly which table it passed (R3.1). `qualification/suite.json` is
 * generated from this table and a test fails when it is stale.
 */
export const SUITE_VERSION = 'negative-suite/2';

export interface SuiteCase {
  row: number;
  title: string;
  /** The requirements the row checks. */
  requirements: readonly string[];
  /** What must hold for the row to pass, in a sentence. */
  guarantee: string;
}

export const SUITE_CASES = [
  {
    row: 1,
    title: 'a refusal is retained beside a completed result',
    requirements: ['R1.4', 'R8.1', 'R8.2'],
    guarantee:
      'a stream with a refusal event and a completed result is classified `refused`, the refusal count is the number of refusal events in the stream, and the provider claim is kept as a claim',
  },
  {
    row: 2,
    title: 'a required capability the manifest lacks is refused before spawn, with no process created',
    requirements: ['R2.3'],
    guarantee:
      'a request requiring a token the manifest lacks is refused naming the token and the adapter version; no request file, no stream and no process carrying the attempt tag exist',
  },
  {
    row: 3,
    title: 'a hung child is killed at the deadline with its descendants, and the attempt is interrupted',
    requirements: ['R7.2', 'R7.3'],
    guarantee:
      'the attempt is `interrupted` with `timedOut`, not ended before the deadline, and no process carrying the attempt tag survives, a setsid descendant included',
  },
  {
    row: 4,
    title: 'a malformed event stream is reported as malformed, never as success',
    requirements: ['R7.5'],
    guarantee:
      'a malformed line, a line that is not UTF-8 and a stream without a result are reported `malformed`, `read-failure` and `no-result`, each `interrupted`, never `completed`',
  },
  {
    row: 5,
    title: 'an absent cost is reported as unknown, never zero',
    requirements: ['R8.3'],
    guarantee: 'a result event without a cost is recorded with cost `unknown`',
  },
  {
    row: 6,
    title: 'a manifest declaring a token the adapter does not honor fails qualification',
    requirements: ['R2.4', 'R10.5'],
    guarantee: 'the init event applies every token the manifest declares, and every measurement the driver makes of a declared token finds it honored',
  },
  {
    row: 7,
    title: 'records are identical whichever adapter implementation produced them',
    requirements: ['R1.2', 'R1.4'],
    guarantee:
      "the result recorded from the live adapter and from its own raw stream replayed through a real child for the same request are equal, except identity, timing and diagnostics' digests",
  },
  {
    row: 8,
    title: 'a run whose check suite invokes a program the allowance omits is refused at plan time, naming the program',
    requirements: ['R9.1', 'R9.3'],
    guarantee:
      "the coverage comparison of the adapter's requiresCommands against a check suite that invokes an omitted program answers `refused` naming that program",
  },
  {
    row: 9,
    title: 'an attempt that attacks the records is denied every move, and the chain verifies afterwards',
    requirements: ['R12', 'R5.3'],
    guarantee:
      "a hostile scenario inside the attempt that reads and appends to the chain, writes a qualification record and a file in the operator's checkout, and signals the supervisor fails at every move: the chain's bytes are unchanged and none reach the workspace, no record or checkout file is written, no signal arrives, and the scenario is seen to have run",
  },
] as const satisfies readonly SuiteCase[];

export type SuiteRow = (typeof SUITE_CASES)[number]['row'];
