/**
 * Imported first by main.ts, so it runs before any module builds a schema: zod decides at each
 * object schema's construction whether its first parse compiles a fast path with `new Function`.
 * A CLI process parses each schema a handful of times and exits, so that compile is never repaid
 * and Node 20 keeps no code cache of it. Same checks, same errors.
 */
import { z } from 'zod';

z.config({ jitless: true });
