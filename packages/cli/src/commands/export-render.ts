import type { z } from 'zod';
import type { ExportAnswerSchema } from '../json-schemas/index.js';
import type { HumanLines } from '../render/human-lines.js';
import { fitRows } from '../render/terminal-width.js';

/** What `export` wrote, and what it could not read, for a person. */
export function renderExport(value: z.infer<typeof ExportAnswerSchema>): HumanLines {
  const megabytes = (value.bytes / (1024 * 1024)).toFixed(1);
  return fitRows([
    `exported run ${value.runId}: ${value.files} files, ${megabytes} MB`,
    `  ${value.form === 'tar' ? 'tar' : 'directory'}: ${value.path}`,
    ...value.notExported.map((missing) => `  not exported: ${missing.path} ${missing.why}`),
    `  next: statecraft verify ${value.path}`,
  ]);
}
