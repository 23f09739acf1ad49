import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// vitest runs only the two tiers' globs (docs/decisions/0251-tests-in-two-tiers.md): a test file
// anywhere else would never run, and nothing would say so.

const root = fileURLToPath(new URL('../../..', import.meta.url));
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'testdata']);

function testFilesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return testFilesUnder(path);
    return entry.name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}

describe('the test layout', () => {
  it('every test file is in a tier: a unit test beside its package, or an end-to-end test under test/e2e/<verb>/', () => {
    const files = [...testFilesUnder(join(root, 'packages')), ...testFilesUnder(join(root, 'test'))];
    expect(files.length).toBeGreaterThan(100);
    const tier = /^packages\/[^/]+\/test\/.+\.test\.ts$|^test\/e2e\/[^/]+\/.+\.test\.ts$/;
    expect(files.filter((file) => !tier.test(file))).toEqual([]);
  });

  it('no fixture module registers a hook at its top level: the module is evaluated once per worker, and its hook would belong to the first file alone', () => {
    const fixtures = join(root, 'test', 'fixtures');
    const sources = new Map(
      readdirSync(fixtures)
        .filter((name) => name.endsWith('.ts'))
        .map((name) => [name, readFileSync(join(fixtures, name), 'utf8')]),
    );
    // The fixtures' functions that register a hook when called (scratchDirectories, useTestTargets…).
    const registering = [...sources.values()].flatMap((source) =>
      source
        .split(/\n(?=export )/)
        .flatMap((chunk) =>
          /(afterAll|beforeAll|afterEach|beforeEach)\(/.test(chunk) ? [...chunk.matchAll(/^export (?:async )?function (\w+)/gm)].map((match) => match[1]!) : [],
        ),
    );
    expect(registering).toContain('scratchDirectories');
    const hook = new RegExp(`^(?:(?:export )?(?:const|let|var) [^=]+= *)?(?:afterAll|beforeAll|afterEach|beforeEach|${registering.join('|')})\\(`);
    const found = [...sources].flatMap(([name, source]) =>
      source
        .split('\n')
        .filter((line) => hook.test(line))
        .map((line) => `${name}: ${line}`),
    );
    expect(found).toEqual([]);
  });
});
