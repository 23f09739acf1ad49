// Writes an NDJSON protocol event stream of about <megabytes> MB to <file>: one init, progress events
// of about 1 KiB (the size of a typical assistant message event), one result.
import { closeSync, openSync, writeSync } from 'node:fs';

export function generateStream(file, megabytes) {
  const target = megabytes * 1024 * 1024;
  const fd = openSync(file, 'w');
  let seq = 0;
  let written = 0;
  const emit = (lines) => {
    const bytes = Buffer.from(lines.join(''));
    writeSync(fd, bytes);
    written += bytes.length;
  };
  const line = (event) => `${JSON.stringify({ protocol: 1, seq: seq++, ...event })}\n`;
  emit([
    line({
      type: 'init',
      adapter: { name: 'bench', version: '0.0.0' },
      provider: 'none',
      requested: { capabilities: [] },
      applied: { capabilities: [], tools: 'not-recorded', allowlist: 'not-recorded' },
      detail: {},
    }),
  ]);
  const text = 'The quick brown fox jumps over the lazy dog; '.repeat(20);
  let events = 1;
  while (written < target) {
    const batch = [];
    for (let index = 0; index < 1000; index += 1) {
      batch.push(line({ type: 'progress', kind: 'message', tools: index % 10 === 0 ? ['shell'] : [], detail: { role: 'assistant', text } }));
    }
    events += batch.length;
    emit(batch);
  }
  emit([
    line({
      type: 'result',
      terminal: 'completed',
      claim: { status: 'success', isError: false, reason: 'not-recorded', detail: {} },
      cost: 'unknown',
      turns: 1,
    }),
  ]);
  closeSync(fd);
  return { bytes: written, events: events + 1 };
}
