import type * as z from 'zod';
import type { CapabilityToken } from '../capabilities.js';
import type { ProviderIdentity } from '../protocol/events.js';
import type { EventDraft } from './event-draft.js';

/** What every stream mapper is told of its invocation: who speaks, what was asked, and what the adapter wired up (R2.4). */
export interface StreamMapperContext {
  adapter: { name: string; version: string };
  provider: ProviderIdentity;
  requested: CapabilityToken[];
  /** What this invocation wired up, before the provider confirms anything. */
  applied: CapabilityToken[];
}

/** What one native line became. `ending` events (refusals, the result) are held by the caller until the provider exits. */
export type MappedLine =
  { kind: 'events'; events: EventDraft[] } | { kind: 'ending'; events: EventDraft[] } | { kind: 'malformed'; reason: string } | { kind: 'ignored' };

/**
 * One native line read as JSON and checked against the provider's line shape (an object with a
 * `type`). A line that is neither is `malformed`: the adapter cannot stand behind anything it would
 * emit for it (R7.5).
 */
export function parseNativeLine<Native>(
  line: string,
  schema: z.ZodType<Native>,
): { kind: 'native'; json: unknown; native: Native } | { kind: 'malformed'; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    return { kind: 'malformed', reason: `not JSON (${(error as Error).message})` };
  }
  const native = schema.safeParse(json);
  if (!native.success) return { kind: 'malformed', reason: 'not an object with a "type"' };
  return { kind: 'native', json, native: native.data };
}

/**
 * A progress event carries its native event verbatim up to this size; beyond it, a summary. The
 * supervisor bounds lines (1 MiB by default, R7.5) and a large tool result is not worth an
 * attempt read as malformed. Refusals and the result are never cut: they are the evidence.
 */
const MAX_PROGRESS_DETAIL_BYTES = 256 * 1024;

/** The native event itself, or past the bound a summary: `head` (what identifies it), its size and an excerpt. */
export function progressDetail(json: unknown, line: string, head: Record<string, unknown>): unknown {
  if (Buffer.byteLength(line) <= MAX_PROGRESS_DETAIL_BYTES) return json;
  return { ...head, truncated: true, nativeBytes: Buffer.byteLength(line), excerpt: line.slice(0, 4096) };
}

/**
 * Events mapped before the provider's own start event are held, so the init is always the first
 * event written; once the init is opened they are released behind it, and later ones pass.
 */
export class HeldUntilInit {
  private readonly held: EventDraft[] = [];
  private initWritten = false;

  get opened(): boolean {
    return this.initWritten;
  }

  /** The init, then everything held; called once. */
  open(init: EventDraft): EventDraft[] {
    this.initWritten = true;
    return [init, ...this.held.splice(0)];
  }

  /** The events to write now: none before the init (they are held), else the events themselves. */
  release(events: EventDraft[]): EventDraft[] {
    if (!this.initWritten) {
      this.held.push(...events);
      return [];
    }
    return events;
  }
}
