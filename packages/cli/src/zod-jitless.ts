/**
 * Imported by main.ts before any verb runs, so it runs before any module builds a schema: every
 * package is loaded by a verb (commands/load-packages.ts), never by main.ts's own imports, which
 * a statically imported module would precede. zod decides at each
 * object schema's construction whether its first parse compiles a fast path with `new Function`.
 * A CLI process parses each schema a handful of times and exits, so that compile is never repaid
 * and Node 20 keeps no code cache of it. Same checks, same errors.
 */
import * as z from 'zod';

z.config({ jitless: true });
