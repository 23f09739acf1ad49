import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a build script in JavaScript, without declarations
import { STANDARD_FORMATS } from '../../../packages/adapter/scripts/write-generated-files.mjs';

const SCHEMA_DIRECTORIES = ['../../../packages/adapter/schema/', '../../../packages/cli/schema/'].map((path) => fileURLToPath(new URL(path, import.meta.url)));

/** Every `format` a JSON document names, with where. */
function formatsIn(value: unknown, at: string, found: string[]): string[] {
  if (typeof value !== 'object' || value === null) return found;
  for (const [key, child] of Object.entries(value)) {
    if (key === 'format' && typeof child === 'string') found.push(`${at}: ${child}`);
    else formatsIn(child, `${at}.${key}`, found);
  }
  return found;
}

/**
 * The published schemas are for other people's validators (R1.5, R11). zod writes its own
 * `"format": "starts_with"` for `.startsWith()`, which a strict validator (Ajv's default) refuses
 * to compile.
 */
describe('the published JSON Schemas name only the formats JSON Schema defines', () => {
  it.each(SCHEMA_DIRECTORIES)('%s', (directory) => {
    const standard = STANDARD_FORMATS as Set<string>;
    for (const file of readdirSync(directory).filter((name) => name.endsWith('.schema.json'))) {
      const formats = formatsIn(JSON.parse(readFileSync(`${directory}${file}`, 'utf8')), file, []);
      expect(formats.filter((entry) => !standard.has(entry.slice(entry.lastIndexOf(': ') + 2)))).toEqual([]);
    }
  });
});
