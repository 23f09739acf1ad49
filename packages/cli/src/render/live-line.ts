import type { WriteStream } from 'node:tty';
import { terminalSafeValue } from './terminal-safe-text.js';

/**
 * One line on a terminal that is rewritten in place while something runs, then committed (kept)
 * when it ends. Only for a TTY: piped output and `--json` never see these control sequences. The
 * line may name a check's command: it is written through terminalSafeValue, like every human line.
 */
export class LiveLine {
  constructor(private readonly terminal: WriteStream) {}

  /** Replaces the current line; cut to the terminal's width so it never wraps. */
  show(text: string): void {
    this.terminal.write(`\r\x1b[2K${this.fit(terminalSafeValue(text))}`);
  }

  /** Replaces the current line and keeps it. */
  commit(text: string): void {
    this.terminal.write(`\r\x1b[2K${terminalSafeValue(text)}\n`);
  }

  private fit(text: string): string {
    const width = this.terminal.columns > 0 ? this.terminal.columns : 80;
    return text.length < width ? text : `${text.slice(0, Math.max(0, width - 2))}…`;
  }
}

/** The live line for a writable that is a terminal; `undefined` when it is not. */
export function liveLineFor(stream: NodeJS.WriteStream): LiveLine | undefined {
  return stream.isTTY ? new LiveLine(stream) : undefined;
}
