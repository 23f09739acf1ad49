import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Decision 0152: text output reaches the terminal only through writeHumanLines (each line escaped
// whole) or the live line (escaped the same way); a new verb cannot print an untrusted value raw.
// The others are the --json document (answer.ts), commander's own usage text (main.ts) and the
// reviewer's page, HTML and not text (decision 0273).
const WRITERS: Record<string, number> = {
  'render/human-lines.ts': 1,
  'render/live-line.ts': 2,
  // The reviewer's page on stdout (`run show --html -o -`): HTML whose every untrusted byte is escaped or base64.
  'render/html/write-page.ts': 1,
  'answer.ts': 1,
  'main.ts': 1,
};

const cliSource = fileURLToPath(new URL('../../../packages/cli/src', import.meta.url));

function filesUnder(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path).flatMap((entry) => filesUnder(join(path, entry)));
}

describe('the CLI writes text output in one place (R11, decision 0152)', () => {
  it('has no write outside the human-lines writer, the live line, the JSON document and the usage text', () => {
    const found: Record<string, number> = {};
    for (const file of filesUnder(cliSource).filter((path) => path.endsWith('.ts'))) {
      const writes = readFileSync(file, 'utf8').match(/\.write\(|\bconsole\.\w+\(/g) ?? [];
      if (writes.length > 0) found[relative(cliSource, file)] = writes.length;
    }
    expect(found).toEqual(WRITERS);
  });
});
