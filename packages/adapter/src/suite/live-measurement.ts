import { EventSchema, type ProtocolEvent } from '../protocol/events.js';
import type { AttemptResult } from '../result.js';
import type { MeasurementContext, Provocation, TokenMeasurement } from './driver.js';

/** How one token's live session is judged: from its result and the events its stream carried. */
export type TokenJudge = (result: AttemptResult, events: ProtocolEvent[]) => { honored: boolean; detail: string };

/**
 * Row 6's step every provider's driver shares: provoke one live session, read the events of its
 * raw stream that parse as protocol events, and judge the token by them.
 */
export function liveMeasurement(context: MeasurementContext) {
  return async (token: TokenMeasurement['token'], provocation: Provocation, judge: TokenJudge): Promise<TokenMeasurement> => {
    const { result, rawStream } = await context.provoke(provocation);
    return { token, evidence: 'live', ...judge(result, eventsOf(rawStream)) };
  };
}

/** The events of a raw stream that parse as protocol events (the stream a measurement reads). */
function eventsOf(rawStream: string): ProtocolEvent[] {
  return rawStream.split('\n').flatMap((line) => {
    try {
      const parsed = EventSchema.safeParse(JSON.parse(line));
      return parsed.success ? [parsed.data] : [];
    } catch {
      return [];
    }
  });
}
