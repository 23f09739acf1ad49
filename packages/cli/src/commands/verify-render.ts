import type { z } from 'zod';
import type { VerifyAnswerSchema } from '../json-schemas/index.js';
import type { HumanLines } from '../render/human-lines.js';
import { WIDTH, breakToWidth } from '../render/terminal-width.js';

/** What holds, then each finding naming the file and the field, for a person, in 80 columns. */
export function renderVerification(value: z.infer<typeof VerifyAnswerSchema>): HumanLines {
  const count = value.findings.length;
  const verdict = count === 0 ? `run ${value.runId}: everything holds` : `run ${value.runId}: ${count} finding${count === 1 ? '' : 's'}`;
  return [
    verdict,
    ...value.holds.flatMap((hold) => wrap(`holds: ${hold.message}`, '  ', '    ')),
    ...value.findings.flatMap((finding) => [
      ...wrap(`${finding.file}${finding.field === undefined ? '' : ` (${finding.field})`}:`, '  ', '    '),
      ...wrap(finding.message, '    ', '    '),
    ]),
  ];
}

/** Text behind `first`, then behind `rest`, in lines of at most 80 columns. */
export function wrap(text: string, first: string, rest: string): string[] {
  return breakToWidth(text, WIDTH - first.length, WIDTH - rest.length).map((piece, index) => `${index === 0 ? first : rest}${piece}`);
}
