// Generates the published JSON Schema of every verb's `--json` document (R11) from the zod
// schemas, which are the one definition: packages/cli/schema/*.schema.json. Run after `tsc -b`
// (it imports dist/).
//   node packages/cli/scripts/generate-schema.mjs          write the files
//   node packages/cli/scripts/generate-schema.mjs --check  exit 1 if a committed file is stale
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { keepStandardFormats, writeOrCheckGenerated } from '../../adapter/scripts/write-generated-files.mjs';
import { ErrorDocumentSchema, VERB_ANSWERS, verbDocumentSchema } from '../dist/json-schemas/index.js';

const schemaDir = fileURLToPath(new URL('../schema/', import.meta.url));

/** What each file describes, in the words of `statecraft --help`. */
const TITLES = {
  run: 'statecraft run --json',
  'run-show': 'statecraft run show --json',
  'run-list': 'statecraft run list --json',
  'run-diff': 'statecraft run diff --json',
  'run-log': 'statecraft run log --json',
  'run-reconcile': 'statecraft run reconcile --json',
  qualify: 'statecraft qualify --json',
  'qualifications-list': 'statecraft qualifications list --json',
  'qualifications-show': 'statecraft qualifications show --json',
  'qualifications-check': 'statecraft qualifications check --json',
  'env-plan': 'statecraft env plan --json',
  doctor: 'statecraft doctor --json',
  accept: 'statecraft accept --json',
  land: 'statecraft land --json',
  prune: 'statecraft prune --json',
  export: 'statecraft export --json',
  verify: 'statecraft verify --json',
  collect: 'statecraft collect --json',
  'keys-generate': 'statecraft keys generate --json',
  'keys-show': 'statecraft keys show --json',
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
    const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any', override: keepStandardFormats });
    const document = { $id: `https://statecraft.invalid/schema/cli/${name}.json`, title, ...generated };
    return { file: `${schemaDir}${name}.schema.json`, text: `${JSON.stringify(document, null, 2)}\n` };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  await writeOrCheckGenerated(schemaDocuments(), 'npx tsc -b && node packages/cli/scripts/generate-schema.mjs');
