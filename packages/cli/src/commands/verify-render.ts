import type { z } from 'zod';
import type { VerifyAnswerSchema } from '../json-schemas/index.js';
import type { HumanLines } from '../render/human-lines.js';

const WIDTH = 80;

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

/** Words filled into lines of at most 80 columns; a word longer than a line stands alone on its own. */
export function wrap(text: string, first: string, rest: string): string[] {
  const lines: string[] = [];
  let line = first;
  for (const word of text.split(' ')) {
    const empty = line === first || line === rest;
    if (!empty && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = rest + word;
    } else line = empty ? line + word : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}
