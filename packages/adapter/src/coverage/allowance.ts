import * as z from 'zod';
import { Sha256DigestSchema } from '../schema-pieces.js';

const DigestSchema = Sha256DigestSchema;

/** Where an allowed program came from (R9.1). Nothing machine-local is ever a source. */
const AllowanceSourceSchema = z.discriminatedUnion('kind', [
  /** The adapter manifest's `requiresCommands`. */
  z.strictObject({ kind: z.literal('adapter') }),
  /** The target's committed `.statecraft/environment.json`, `project.commands`, at this digest. */
  z.strictObject({ kind: z.literal('declared'), digest: DigestSchema }),
]);
export type AllowanceSource = z.infer<typeof AllowanceSourceSchema>;

/** The declaration as it was read: present (with its digest) or `absent`, never assumed. */
const DeclarationStateSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('declared'), path: z.string().min(1), digest: DigestSchema }),
  z.strictObject({ kind: z.literal('absent'), path: z.string().min(1) }),
]);

const AllowanceEntrySchema = z.strictObject({
  program: z.string().min(1),
  sources: z.array(AllowanceSourceSchema).min(1),
});

/** The allowance (R9.1): every program the posture allows, each with where it came from. */
export const AllowanceSchema = z.strictObject({
  entries: z.array(AllowanceEntrySchema),
  declaration: DeclarationStateSchema,
});
export type Allowance = z.infer<typeof AllowanceSchema>;

/** The declaration's contribution, already validated (`parseProjectDeclaration` in the environment package). */
export type DeclarationInput = { kind: 'declared'; path: string; digest: string; commands: readonly string[] } | { kind: 'absent'; path: string };

/**
 * Merges the adapter's `requiresCommands` with the declared `project.commands` (R9.1). A program
 * named by both keeps both sources, adapter first; order is the adapter's, then the declaration's.
 */
export function buildAllowance(input: { adapterCommands: readonly string[]; declaration: DeclarationInput }): Allowance {
  const entries = new Map<string, AllowanceSource[]>();
  const add = (program: string, source: AllowanceSource): void => {
    const sources = entries.get(program);
    if (sources === undefined) entries.set(program, [source]);
    else sources.push(source);
  };
  for (const program of new Set(input.adapterCommands)) add(program, { kind: 'adapter' });
  const { declaration } = input;
  if (declaration.kind === 'declared') {
    for (const program of new Set(declaration.commands)) add(program, { kind: 'declared', digest: declaration.digest });
  }
  return {
    entries: [...entries].map(([program, sources]) => ({ program, sources })),
    declaration:
      declaration.kind === 'declared' ? { kind: 'declared', path: declaration.path, digest: declaration.digest } : { kind: 'absent', path: declaration.path },
  };
}
