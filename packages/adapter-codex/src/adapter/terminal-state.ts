import type { TerminalState } from '@statecraft/adapter';

/**
 * Codex's ending in neutral terms, fixed so two adapters cannot disagree (R10.4): only the
 * measured endings map (docs/facts.md items 21, 22 and the HTTP-error ending in
 * decision 0060); any other `turn.*` event is `unmapped`, never completion.
 */
export function terminalStateFor(nativeType: string): TerminalState {
  if (nativeType === 'turn.completed') return 'completed';
  if (nativeType === 'turn.failed') return 'provider-error';
  return 'unmapped';
}

/** `turn.*` events that neither start nor continue a turn end it: the mapping's terminal set. */
export function endsTurn(nativeType: string): boolean {
  return nativeType.startsWith('turn.') && nativeType !== 'turn.started';
}
