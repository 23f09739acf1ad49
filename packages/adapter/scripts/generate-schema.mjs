// Generates the published JSON Schema of the wire format (R1.5) from the zod schemas, which are
// the one definition: packages/adapter/schema/*.json. Run after `tsc -b` (it imports dist/).
//   node packages/adapter/scripts/generate-schema.mjs          write the files
//   node packages/adapter/scripts/generate-schema.mjs --check  exit 1 if a committed file is stale
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { keepStandardFormats, writeOrCheckGenerated } from './write-generated-files.mjs';
import { AttemptResultSchema, EventSchema, ManifestSchema, PROTOCOL_VERSION, RequestSchema } from '../dist/index.js';
import { QualificationRecordSchema, ReceiptSchema } from '../../records/dist/index.js';

const schemaDir = fileURLToPath(new URL('../schema/', import.meta.url));

/** One file per wire shape; the `$id` names the protocol version so a reader knows what it holds. */
export function schemaDocuments() {
  const shapes = {
    manifest: { schema: ManifestSchema, title: 'statecraft adapter manifest', io: 'input' },
    request: { schema: RequestSchema, title: 'statecraft adapter request', io: 'input' },
    event: { schema: EventSchema, title: 'statecraft adapter event (one NDJSON line)', io: 'input' },
    'attempt-result': { schema: AttemptResultSchema, title: 'statecraft attempt result', io: 'output' },
    'qualification-record': { schema: QualificationRecordSchema, title: 'statecraft qualification record', io: 'output' },
    receipt: { schema: ReceiptSchema, title: 'statecraft acceptance receipt', io: 'output' },
  };
  return Object.entries(shapes).map(([name, { schema, title, io }]) => {
    const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', override: keepStandardFormats });
    const document = {
      $id: `https://statecraft.invalid/schema/protocol-${PROTOCOL_VERSION}/${name}.json`,
      title,
      ...generated,
    };
    return { file: `${schemaDir}${name}.schema.json`, text: `${JSON.stringify(document, null, 2)}\n` };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  await writeOrCheckGenerated(schemaDocuments(), 'npx tsc -b && node packages/adapter/scripts/generate-schema.mjs');
