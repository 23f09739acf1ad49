import { readReceiptState, type AttemptAccount, type Landing } from '@statecraft/records';

/** The account with its acceptance's receipt state read from git (`current` or `stale`, R13.6). */
export async function withReceiptState<A extends AttemptAccount>(account: A, landings: readonly Landing[] = []): Promise<A> {
  if (account.acceptance === 'not-recorded' || account.acceptance.receipt === null) return account;
  return {
    ...account,
    acceptance: { ...account.acceptance, receiptState: await readReceiptState(account.acceptance, account.target, account.branch, landings) },
  };
}
