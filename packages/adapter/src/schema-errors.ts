import type * as z from 'zod';

/**
 * Turns a zod error into one sentence per problem naming the file, the field and what was
 * wrong, e.g. `adapter.manifest.json: field "capabilities[2]": Invalid option …`.
 */
export function describeSchemaIssues(file: string, error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.length === 0 ? '(the document)' : `"${formatPath(issue.path)}"`;
      return `${file}: field ${field}: ${issue.message}`;
    })
    .join('\n');
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? String(part) : `.${String(part)}`)).join('');
}
