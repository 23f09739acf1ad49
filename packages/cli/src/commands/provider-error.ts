import { finalMessageIn, messageText, type FinalMessage } from './final-message.js';
import { readStreamTail, type TailEvent } from './stream-tail.js';

/** How much of the provider's message is kept in the answer; the whole is in the kept stream. */
const KEPT_CHARACTERS = 2000;

/**
 * The provider's own words for the error that ended the attempt, read from the kept stream: the
 * event that carries them (`seq`), its text, the provider's code for it and the HTTP status when
 * the provider reported them. `none` when the stream ended in no provider error, or holds no words
 * for it. The agent's claim says only that there was an error; this says which.
 */
export type ProviderError =
  | {
      seq: number;
      text: string;
      /** The provider's code for the error, or `not-recorded`. */
      code: string;
      httpStatus: number | 'not-recorded';
      cut: boolean;
    }
  | 'none';

interface Claim {
  status?: unknown;
  reason?: unknown;
  detail?: { api_error_status?: unknown };
}

/** `{"error":{"type","message"}}` (an HTTP error body, as Codex passes it on) read as its message and type; else the text. */
function unwrapErrorBody(text: string): { text: string; code?: string } {
  try {
    const body = JSON.parse(text) as { error?: { type?: unknown; message?: unknown } };
    const message = body.error?.message;
    if (typeof message === 'string' && message.trim() !== '')
      return { text: message, ...(typeof body.error?.type === 'string' ? { code: body.error.type } : {}) };
  } catch {
    // Not an error body: the text is the provider's message as it stands.
  }
  return { text };
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * Where each provider puts its error's words, before the result: Claude Code writes the API's
 * error as an assistant message marked `is_api_error_message` (its `error` the code); Codex writes
 * a top-level `error` notice and a `turn.failed` whose error message the adapter keeps as the
 * claim's reason.
 */
function wordsBefore(events: readonly TailEvent[], end: number, claim: Claim): { seq: number; text: string; code?: string } | undefined {
  for (let index = end - 1; index >= 0; index -= 1) {
    const { type, kind, seq, detail } = events[index] ?? {};
    if (type !== 'progress' || typeof seq !== 'number' || typeof detail !== 'object' || detail === null) continue;
    const native = detail as { is_api_error_message?: unknown; error?: unknown; message?: unknown };
    if (kind === 'message' && native.is_api_error_message === true) {
      const text = stringOf(messageText(detail));
      const code = stringOf(native.error);
      if (text !== undefined) return { seq, text, ...(code === undefined ? {} : { code }) };
    }
    if (kind === 'provider-error-notice') {
      const text = stringOf(native.message);
      if (text !== undefined) return { seq, ...unwrapErrorBody(text) };
    }
  }
  const reason = stringOf(claim.reason);
  const resultSeq = events[end]?.seq;
  if (claim.status === 'turn.failed' && reason !== undefined && reason !== 'not-recorded' && typeof resultSeq === 'number')
    return { seq: resultSeq, ...unwrapErrorBody(reason) };
  return undefined;
}

/** The provider error the stream's result ends in (`terminal: provider-error`), in the provider's words. */
function providerErrorIn(events: readonly TailEvent[]): ProviderError {
  const end = events.findLastIndex((event) => event.type === 'result');
  const result = events[end];
  if (result === undefined || result.terminal !== 'provider-error') return 'none';
  const claim = (typeof result.claim === 'object' && result.claim !== null ? result.claim : {}) as Claim;
  const words = wordsBefore(events, end, claim);
  if (words === undefined) return 'none';
  const status = claim.detail?.api_error_status;
  return {
    seq: words.seq,
    text: words.text.slice(0, KEPT_CHARACTERS),
    code: words.code ?? 'not-recorded',
    httpStatus: typeof status === 'number' && Number.isSafeInteger(status) && status > 0 ? status : 'not-recorded',
    cut: words.text.length > KEPT_CHARACTERS,
  };
}

/** What the end of the kept stream says, read once: the agent's last message and the provider's error. */
export function readStreamEnding(stream: { path: string } | 'not-recorded'): { finalMessage: FinalMessage; providerError: ProviderError } {
  const events = readStreamTail(stream);
  return { finalMessage: finalMessageIn(events), providerError: providerErrorIn(events) };
}

/** The HTTP status and the provider's code, as ` (HTTP 401, authentication_error)`; empty when it gave neither. */
export function describeErrorCodes(error: Exclude<ProviderError, 'none'>): string {
  const parts = [error.httpStatus === 'not-recorded' ? '' : `HTTP ${error.httpStatus}`, error.code === 'not-recorded' ? '' : error.code].filter(
    (part) => part !== '',
  );
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}
