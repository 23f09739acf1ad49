// Generates the published JSON Schema of every verb's `--json` document (R11) from the zod
// schemas, which are the one definition: packages/cli/schema/*.schema.json. Run after `tsc -b`
// (it imports dist/).
//   node packages/cli/scripts/generate-schema.mjs          write the files
//   node packages/cli/scripts/generate-schema.mjs --check  exit 1 if a committed file is stale
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ErrorDocumentSchema, VERB_ANSWERS, verbDocumentSchema } from '../dist/json-schemas/index.js';

const schemaDir = fileURLToPath(new URL('../schema/', import.meta.url));

/** What each file describes, in the words of `statecraft --help`. */
const TITLES = {
  run: 'statecraft run --json',
  'run-show': 'statecraft run show --json',
  'run-list': 'statecraft run list --json',
  qualify: 'statecraft qualify --json',
  'qualifications-list': 'statecraft qualifications list --json',
  'qualifications-show': 'statecraft qualifications show --json',
  'qualifications-check': 'statecraft qualifications check --json',
  'env-plan': 'statecraft env plan --json',
  doctor: 'statecraft doctor --json',
};

/** One file per verb (its answer or an error document), and one for the error documents alone. */
export function schemaDocuments() {
  const shapes = Object.keys(VERB_ANSWERS).map((verb) => ({
    name: verb,
    schema: verbDocumentSchema(verb),
    title: `${TITLES[verb] ?? verb}: the answer, or a refusal, failure or usage document`,
  }));
  shapes.push({
    name: 'error-document',
    schema: ErrorDocumentSchema,
    title: 'statecraft --json when a verb does not answer: refused (exit 2), failed (exit 4) or usage (exit 3)',
  });
  return shapes.map(({ name, schema, title }) => {
    const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' });
    const document = { $id: `https://statecraft.invalid/schema/cli/${name}.json`, title, ...generated };
    return { file: `${schemaDir}${name}.schema.json`, text: `${JSON.stringify(document, null, 2)}\n` };
  });
}

async function main() {
  const check = process.argv.includes('--check');
  const stale = [];
  await mkdir(schemaDir, { recursive: true });
  for (const { file, text } of schemaDocuments()) {
    if (check) {
      const current = await readFile(file, 'utf8').catch(() => '');
      if (current !== text) stale.push(file);
    } else {
      await writeFile(file, text);
    }
  }
  if (stale.length > 0) {
    process.stderr.write(`stale JSON Schema: ${stale.join(', ')}\nregenerate with: npx tsc -b && node packages/cli/scripts/generate-schema.mjs\n`);
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
