// Writes the negative suite's table as data (qualification/suite.json) from the one definition in
// code (src/suite/case-table.ts), so people and other tools can read which cases a suite version
// holds. Run after `tsc -b` (it imports dist/).
//   node packages/adapter/scripts/generate-suite-table.mjs          write the file
//   node packages/adapter/scripts/generate-suite-table.mjs --check  exit 1 if the committed file is stale
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PROTOCOL_VERSION, SUITE_CASES, SUITE_VERSION } from '../dist/index.js';

const file = fileURLToPath(new URL('../../../qualification/suite.json', import.meta.url));

const document = {
  suiteVersion: SUITE_VERSION,
  protocol: PROTOCOL_VERSION,
  generatedFrom: 'packages/adapter/src/suite/case-table.ts',
  cases: SUITE_CASES,
};
const text = `${JSON.stringify(document, null, 2)}\n`;

if (process.argv.includes('--check')) {
  const current = await readFile(file, 'utf8').catch(() => '');
  if (current !== text) {
    process.stderr.write(`stale: ${file}\nregenerate with: npx tsc -b && node packages/adapter/scripts/generate-suite-table.mjs\n`);
    process.exit(1);
  }
} else {
  await writeFile(file, text);
}
