import * as z from 'zod';
import { describeSchemaIssues } from '@statecraft/adapter';

/**
 * The target repository's committed `.statecraft/environment.json` (R9.1, R13). `project.commands`
 * and `acceptance.checks` / `acceptance.authority` are read here. Other top-level members are kept
 * as written, not dropped (a `$schema`, a newer section), so a newer file read by an older
 * statecraft loses nothing; inside `project` and `acceptance` an unknown key is refused, naming it:
 * a misspelt `authorty` would otherwise drop the operator's authority paths without a word (R13.5),
 * and a suite defined with fields this statecraft does not know must not be judged as if it did.
 */

/** Where the declaration lives, relative to the target repository's root. */
export const PROJECT_DECLARATION_PATH = '.statecraft/environment.json';

/** Letters, digits and `_ . + -`: the alphabet of a bare program name (R9.1, R9.2). */
const BARE_PROGRAM_NAME = /^[A-Za-z0-9_.+-]+$/;

/** One `project.commands` entry: a bare program name, each problem named in its own words (R9.1). */
const ProjectCommandSchema = z.unknown().transform((entry, context): string => {
  const problem = describeEntryProblem(entry);
  if (problem !== null) {
    context.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  }
  return entry as string;
});

/** `project.commands`: non-empty when present, no duplicates (R9.1). */
const ProjectCommandsSchema = z
  .array(ProjectCommandSchema, { error: 'must be a list of program names' })
  .min(1, { message: 'is an empty list; name at least one program, or leave "commands" out' })
  .superRefine((commands, context) => {
    const firstAt = new Map<string, number>();
    for (const [index, command] of commands.entries()) {
      const earlier = firstAt.get(command);
      if (earlier === undefined) firstAt.set(command, index);
      else context.addIssue({ code: 'custom', path: [index], message: `"${command}" is listed twice (also at [${earlier}])` });
    }
  });

// Strict: see the module's comment.
const ProjectSectionSchema = z.strictObject({
  commands: ProjectCommandsSchema.optional(),
});

/** One `acceptance.checks` entry: a command line as a spec's Verification block would hold it (R13.3). */
const AcceptanceCheckSchema = z
  .string({ error: 'must be a string holding one command' })
  .refine((check) => check.trim() !== '', 'is empty; write the command')
  .refine((check) => !/[\r\n]/.test(check), 'holds a line break; one check is one command line');

/**
 * One `acceptance.authority` entry: a repository-relative path prefix (a file, or a directory with
 * or without a final `/`) whose change puts the candidate outside its own suite's word (R13.5).
 */
const AuthorityPathSchema = z.string({ error: 'must be a string naming a repository-relative path' }).superRefine((entry, context) => {
  const segments = entry.replace(/\/$/, '').split('/');
  const problem =
    entry === ''
      ? 'is empty; name a path'
      : entry.startsWith('/')
        ? `${JSON.stringify(entry)} is absolute; name a path relative to the repository root`
        : segments.some((segment) => segment === '' || segment === '.' || segment === '..')
          ? `${JSON.stringify(entry)} has an empty, "." or ".." segment; name the path plainly`
          : null;
  if (problem !== null) context.addIssue({ code: 'custom', message: problem });
});

/** `acceptance`: the checks a run without a spec is judged by, and the authority set's further paths (R13.3, R13.5). */
const AcceptanceSectionSchema = z.strictObject({
  checks: z
    .array(AcceptanceCheckSchema, { error: 'must be a list of command lines' })
    .min(1, { message: 'is an empty list; name at least one check, or leave "checks" out' })
    .optional(),
  authority: z.array(AuthorityPathSchema, { error: 'must be a list of repository-relative paths' }).optional(),
});

export const ProjectDeclarationSchema = z.looseObject({
  project: ProjectSectionSchema.optional(),
  acceptance: AcceptanceSectionSchema.optional(),
});
type ProjectDeclaration = z.infer<typeof ProjectDeclarationSchema>;

export type ProjectDeclarationParse =
  | {
      kind: 'parsed';
      file: string;
      declaration: ProjectDeclaration;
      /** The declared programs; empty when the file does not declare `project.commands`. */
      commands: string[];
      /** `acceptance.checks` (`none` when not declared) and `acceptance.authority` (empty when not declared). */
      acceptance: { checks: string[] | 'none'; authority: string[] };
    }
  | { kind: 'refused'; file: string; reason: 'not-json' | 'invalid'; message: string };

/**
 * Parses the declaration's text (no I/O: the caller read it from the working tree or from a
 * commit). A malformed entry refuses, naming the file, the field and the entry (R9.1).
 */
export function parseProjectDeclaration(text: string, file: string): ProjectDeclarationParse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { kind: 'refused', file, reason: 'not-json', message: `${file}: not JSON (${(error as Error).message})` };
  }
  const parsed = ProjectDeclarationSchema.safeParse(json);
  if (!parsed.success) {
    return { kind: 'refused', file, reason: 'invalid', message: describeSchemaIssues(file, parsed.error) };
  }
  const acceptance = parsed.data.acceptance;
  return {
    kind: 'parsed',
    file,
    declaration: parsed.data,
    commands: parsed.data.project?.commands ?? [],
    acceptance: { checks: acceptance?.checks?.map((check) => check.trim()) ?? 'none', authority: acceptance?.authority ?? [] },
  };
}

function describeEntryProblem(entry: unknown): string | null {
  if (typeof entry !== 'string') return `must be a string naming a program, not ${entry === null ? 'null' : typeof entry} ${JSON.stringify(entry)}`;
  const shown = JSON.stringify(entry);
  if (entry === '') return 'is an empty string; name a program';
  if (entry.includes('/')) return `${shown} contains "/"; a declared command is a bare program name, never a path`;
  if (/\s/.test(entry)) return `${shown} contains whitespace; a declared command is one bare program name, without arguments`;
  if (entry === '.' || entry === '..') return `${shown} is not a program name`;
  if (!BARE_PROGRAM_NAME.test(entry)) return `${shown} is not a bare program name (letters, digits and _ . + - only)`;
  return null;
}
