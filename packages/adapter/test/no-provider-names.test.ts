import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// R1.1: the seam names no provider — in no type, string, file name or dependency. This file must
// spell the names it looks for, which is why it lives under a "no-provider" path the hook exempts.
const PROVIDER_NAMES = ['claude', 'anthropic', 'codex', 'gemini', 'openai'];
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const SEARCHED = ['src', 'fixture', 'schema', 'scripts', 'package.json'];

function filesUnder(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path).flatMap((entry) => filesUnder(join(path, entry)));
}

describe('the seam package names no provider (R1.1)', () => {
  const files = SEARCHED.flatMap((entry) => {
    try {
      return filesUnder(join(packageDir, entry));
    } catch {
      return [];
    }
  });

  it('searches the sources, the fixture, the schema, the scripts and the package manifest', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files.some((file) => file.endsWith('statecraft-fixture-adapter'))).toBe(true);
  });

  it.each(PROVIDER_NAMES)('no file content or file name under packages/adapter mentions %s', (name) => {
    const pattern = new RegExp(name, 'i');
    const offenders = files.filter((file) => pattern.test(relative(packageDir, file)) || pattern.test(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => relative(packageDir, file))).toEqual([]);
  });
});
