import type { TerminalState } from '@statecraft/adapter';
import type { NativeResult } from './native-events.js';

/**
 * The provider's ending in neutral terms (R10.4), fixed so two adapters cannot disagree. Only
 * measured states map (docs/facts.md items 2, 4, 5); anything else is `unmapped`, never completion.
 * Denials are not consulted here: the supervisor reads refusal events before this (R10.4).
 */
export function terminalStateFor(result: NativeResult): TerminalState {
  if (result.terminal_reason === 'max_turns') return 'turn-limit';
  if (result.subtype === 'success') return result.is_error ? 'provider-error' : 'completed';
  return 'unmapped';
}
