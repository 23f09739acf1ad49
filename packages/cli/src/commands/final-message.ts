import type { TailEvent } from './stream-tail.js';

/** How much of the message is kept in the answer; the whole is in the kept stream. */
const KEPT_CHARACTERS = 2000;

/** The agent's last message, as its adapter put it in the stream (`progress` of kind `message`), or `none`. */
export type FinalMessage = { seq: number; text: string; cut: boolean } | 'none';

/**
 * The text of a message event's detail, whatever adapter wrote it: the fixture's `{ text }`, Claude
 * Code's assistant event (`message.content[]` text blocks) or a Codex item (`item.text`). Anything
 * else has no text statecraft knows how to read.
 */
export function messageText(detail: unknown): string | undefined {
  if (typeof detail !== 'object' || detail === null) return undefined;
  const record = detail as { text?: unknown; message?: { content?: unknown }; item?: { text?: unknown } };
  if (typeof record.text === 'string') return record.text;
  if (typeof record.item?.text === 'string') return record.item.text;
  const content = record.message?.content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((block: unknown) =>
    typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text' && typeof (block as { text?: unknown }).text === 'string'
      ? [(block as { text: string }).text]
      : [],
  );
  return texts.length === 0 ? undefined : texts.join('\n');
}

/** The last message event among the kept stream's last events (stream-tail.ts), or `none`. */
export function finalMessageIn(events: readonly TailEvent[]): FinalMessage {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const { type, kind, seq, detail } = events[index] ?? {};
    if (type !== 'progress' || kind !== 'message' || typeof seq !== 'number') continue;
    const text = messageText(detail)?.trim();
    if (text === undefined || text === '') continue;
    return { seq, text: text.slice(0, KEPT_CHARACTERS), cut: text.length > KEPT_CHARACTERS };
  }
  return 'none';
}
