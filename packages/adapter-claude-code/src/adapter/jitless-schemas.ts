/**
 * Imported first by the executable's entry (main.ts), before any schema is built — zod reads the
 * setting when a schema is made. zod's JIT compiles a parser per object schema on its first parse
 * (`new Function`), which pays back only over many parses; the adapter parses its request once
 * and its events a few dozen times, on every attempt's start. The checks are
 * the same either way.
 */
import * as z from 'zod';

z.config({ jitless: true });
