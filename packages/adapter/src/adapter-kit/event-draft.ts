import type { ProtocolEvent } from '../protocol/events.js';

type WithoutEnvelope<T> = T extends unknown ? Omit<T, 'protocol' | 'seq'> : never;

/** A protocol event before the writer stamps its protocol version and sequence number. */
export type EventDraft = WithoutEnvelope<ProtocolEvent>;
