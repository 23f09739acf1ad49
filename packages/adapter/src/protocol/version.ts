import * as z from 'zod';

/** The adapter protocol's version. Every event and request carries it; any other value is malformed (R1.5). */
export const PROTOCOL_VERSION = 1 as const;
export const ProtocolVersionSchema = z.literal(PROTOCOL_VERSION);
