import { readdirSync } from 'node:fs';
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
});
