import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('../../../packages/adapter/', import.meta.url));

function check(script: string): { status: number; stderr: string } {
  try {
    execFileSync(process.execPath, [`scripts/${script}`, '--check'], { cwd: packageDir, stdio: 'pipe' });
    return { status: 0, stderr: '' };
  } catch (error) {
    const failure = error as { status: number; stderr: Buffer };
    return { status: failure.status, stderr: failure.stderr.toString() };
  }
}

describe('published wire-format artefacts are current', () => {
  it('the committed JSON Schema files match what the zod schemas generate (R1.5)', () => {
    expect(check('generate-schema.mjs')).toEqual({ status: 0, stderr: '' });
  });

  it('qualification/suite.json matches the case table in code (R4: the suite has a version)', () => {
    expect(check('generate-suite-table.mjs')).toEqual({ status: 0, stderr: '' });
  });

  it('the event schema pins the protocol version, so another version is not guessed at (R1.5)', () => {
    const schema = JSON.parse(readFileSync(`${packageDir}/schema/event.schema.json`, 'utf8')) as { oneOf: { properties: { protocol: { const: number } } }[] };
    expect(schema.oneOf.length).toBe(5);
    for (const variant of schema.oneOf) expect(variant.properties.protocol.const).toBe(1);
  });
});
