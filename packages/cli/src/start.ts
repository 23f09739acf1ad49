/**
 * The bundle's entry. zod is configured here, alone, before main.ts and the verbs are imported: a
 * statically imported module is evaluated before its importer's own code, so a schema built in
 * any of them would otherwise be built before `z.config` ran, and compile a fast path at its
 * first parse that a short-lived process never repays.
 */
import './zod-jitless.js';

await import('./main.js');
