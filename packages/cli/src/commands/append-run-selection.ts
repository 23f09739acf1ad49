import { failedPath, selectionOf, type AttemptAccount, type RankKey, type SelectionRecord, type SerialAppender } from '@statecraft/records';

/** The selection record as the answer names it: where it is, its rule, the attempts best first and the one chosen. */
export interface AppendedSelection {
  line: number;
  sha256: string;
  rule: { version: number };
  chosen: number;
  ranked: { attempt: number; key: RankKey }[];
}

/**
 * The run's selection, appended through its chain once every attempt has ended (and, with
 * --accept, been judged): the attempts ranked by the recorded evidence alone (selectionOf), the
 * first chosen. `none` when no attempt has records to rank.
 */
export async function appendRunSelection(
  chain: SerialAppender,
  runId: string,
  accounts: readonly AttemptAccount[],
): Promise<AppendedSelection | 'none' | { failed: { path: string; message: string } }> {
  if (accounts.length === 0) return 'none';
  let appended: Awaited<ReturnType<SerialAppender['append']>>;
  try {
    appended = await chain.append(() => selectionOf(runId, accounts));
  } catch (error) {
    const message = `cannot append the run's selection (${(error as Error).message}); every attempt's records stand, none was chosen: name one with --attempt`;
    return { failed: { path: failedPath(error, chain.chain), message } };
  }
  const record = appended.record as SelectionRecord;
  return {
    line: record.seq + 1,
    sha256: appended.digest,
    rule: record.rule,
    chosen: record.chosen.attempt,
    ranked: record.ranked.map(({ attempt, key }) => ({ attempt, key })),
  };
}
