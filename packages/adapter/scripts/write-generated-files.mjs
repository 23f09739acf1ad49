// Writes generated files, or with `--check` in argv exits 1 naming each committed file that is
// stale: the one write-or-check step of every generator (the protocol's and the CLI's JSON Schema).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** `documents`: `{ file, text }` each; `regenerate`: the command that brings a stale file up to date. */
export async function writeOrCheckGenerated(documents, regenerate) {
  const check = process.argv.includes('--check');
  const stale = [];
  for (const { file, text } of documents) {
    if (check) {
      const current = await readFile(file, 'utf8').catch(() => '');
      if (current !== text) stale.push(file);
    } else {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, text);
    }
  }
  if (stale.length > 0) {
    process.stderr.write(`stale JSON Schema: ${stale.join(', ')}\nregenerate with: ${regenerate}\n`);
    process.exit(1);
  }
}

/**
 * The formats JSON Schema 2020-12 defines. zod names some checks with formats of its own
 * (`starts_with` for `.startsWith()`, beside the pattern that says the same), which a strict
 * validator refuses to compile: a published schema carries only these, its patterns saying the rest.
 */
const STANDARD_FORMATS = new Set([
  'date-time',
  'date',
  'time',
  'duration',
  'email',
  'idn-email',
  'hostname',
  'idn-hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'iri',
  'iri-reference',
  'uuid',
  'uri-template',
  'json-pointer',
  'relative-json-pointer',
  'regex',
]);

/** `z.toJSONSchema`'s `override`: a format no JSON Schema validator knows is left out. */
export function keepStandardFormats({ jsonSchema }) {
  if (typeof jsonSchema.format === 'string' && !STANDARD_FORMATS.has(jsonSchema.format)) delete jsonSchema.format;
}

export { STANDARD_FORMATS };
