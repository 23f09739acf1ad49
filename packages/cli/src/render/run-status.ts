import type { ProtocolEvent } from '@statecraft/adapter';

/** What the live status line counts while an attempt runs. */
export class RunStatus {
  private startedAt = 0;
  private deadlineMs = 0;
  private events = 0;
  private toolUses = 0;
  private refusals = 0;
  private cost: number | 'unknown' = 'unknown';
  private label = '';

  started(at: { runId: string; attempt: number; deadlineMs: number }): void {
    this.startedAt = Date.now();
    this.deadlineMs = at.deadlineMs;
    this.label = `attempt ${at.attempt}`;
  }

  private ended = false;

  get running(): boolean {
    return this.startedAt !== 0 && !this.ended;
  }

  /** The attempt is over (its acceptance may follow): the line stops updating. */
  end(): void {
    this.ended = true;
  }

  observe(event: ProtocolEvent): void {
    this.events += 1;
    if (event.type === 'progress') this.toolUses += event.tools.length;
    if (event.type === 'refusal') this.refusals += 1;
    if (event.type === 'result' && event.cost !== undefined && event.cost !== 'unknown') this.cost = event.cost.usd;
  }

  /** e.g. `attempt 1 · 12s / 30m · 14 events · 3 tool uses · 1 refusal · cost unknown` (fits 80 columns). */
  line(): string {
    const elapsed = formatDuration(Date.now() - this.startedAt);
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const cost = this.cost === 'unknown' ? 'cost unknown' : `cost $${this.cost.toFixed(4)}`;
    return `${this.label} · ${elapsed} / ${formatDuration(this.deadlineMs)} · ${plural(this.events, 'event')} · ${plural(this.toolUses, 'tool use')} · ${plural(this.refusals, 'refusal')} · ${cost}`;
  }
}

function formatDuration(milliseconds: number): string {
  const seconds = Math.floor(milliseconds / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return minutes % 60 === 0 ? `${minutes / 60}h` : `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
