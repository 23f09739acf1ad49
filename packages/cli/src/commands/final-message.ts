import { readRegularFileTail } from '@statecraft/adapter';

/** How much of the kept stream's end is read for the last message: the attempt's last words are near its end. */
const TAIL_BYTES = 256 * 1024;
/** How much of the message is kept in the answer; the whole is in the kept stream. */
const KEPT_CHARACTERS = 2000;

/** The agent's last message, as its adapter put it in the stream (`progress` of kind `message`), or `none`. */
export type FinalMessage = { seq: number; text: string; cut: boolean } | 'none';

/**
 * The text of a message event's detail, whatever adapter wrote it: the fixture's `{ text }`, Claude
 * Code's assistant event (`message.content[]` text blocks) or a Codex item (`item.text`). Anything
 * else has no text statecraft knows how to read.
 */
function messageText(detail: unknown): string | undefined {
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

/**
 * The last message event in the kept stream, read from its end: the file already written, so `run`
 * spends one bounded read on it and `run show` reads the same bytes. Unreadable or absent: `none`.
 */
export function readFinalMessage(stream: { path: string } | 'not-recorded'): FinalMessage {
  if (stream === 'not-recorded') return 'none';
  let tail: Buffer;
  try {
    tail = readRegularFileTail(stream.path, TAIL_BYTES);
  } catch {
    return 'none';
  }
  const lines = tail.toString('utf8').split('\n');
  // A tail that starts mid-file starts mid-line: that piece is no event, whatever it parses as.
  if (tail.length === TAIL_BYTES) lines.shift();
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    let event: unknown;
    try {
      event = JSON.parse(lines[index] ?? '');
    } catch {
      continue;
    }
    const { type, kind, seq, detail } = (event ?? {}) as { type?: unknown; kind?: unknown; seq?: unknown; detail?: unknown };
    if (type !== 'progress' || kind !== 'message' || typeof seq !== 'number') continue;
    const text = messageText(detail)?.trim();
    if (text === undefined || text === '') continue;
    return { seq, text: text.slice(0, KEPT_CHARACTERS), cut: text.length > KEPT_CHARACTERS };
  }
  return 'none';
}
