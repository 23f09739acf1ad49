import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// docs/architecture.md, convention 1: each package's src/index.ts opens with a map of its modules.
// A module the map does not name is one a newcomer cannot find from the entry point.

const packagesDir = fileURLToPath(new URL('../../../packages', import.meta.url));

function modulesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) return modulesUnder(path);
    return entry.endsWith('.ts') && !entry.endsWith('.d.ts') ? [path] : [];
  });
}

/** The opening doc comment of an index.ts: the map. */
export function moduleMapOf(indexText: string): string {
  const match = /^\/\*\*([\s\S]*?)\*\//.exec(indexText);
  return match?.[1] ?? '';
}

/**
 * Whether the map names a module: by its path (`supervise/deadline.ts`), by its directory
 * (`supervise/*`, `qualification/`), or by its file name in a line under that directory's entry.
 */
export function mapNames(map: string, module: string): boolean {
  if (map.includes(module)) return true;
  const parts = module.split('/');
  for (let depth = parts.length - 1; depth > 0; depth -= 1) {
    const directory = parts.slice(0, depth).join('/');
    if (map.includes(`${directory}/*`) || map.includes(`${directory}/ `) || map.includes(`${directory}/\n`)) return true;
  }
  return false;
}

const packages = readdirSync(packagesDir).filter((entry) => statSync(join(packagesDir, entry, 'src', 'index.ts'), { throwIfNoEntry: false }));

describe('every module map lists every module', () => {
  it.each(packages)('%s: src/index.ts names each of its modules', (name) => {
    const src = join(packagesDir, name, 'src');
    expect(moduleMapOf(readFileSync(join(src, 'index.ts'), 'utf8'))).toContain('Modules:');
    // A directory with an index.ts of its own (suite/, coverage/) may carry the map of its modules.
    const mapOf = (directory: string) => moduleMapOf(readFileSync(join(src, directory, 'index.ts'), { encoding: 'utf8', flag: 'r' }));
    const missing = modulesUnder(src)
      .map((file) => relative(src, file))
      .filter((module) => !module.endsWith('index.ts'))
      .filter((module) => {
        const parts = module.split('/');
        for (let depth = parts.length - 1; depth >= 0; depth -= 1) {
          const directory = parts.slice(0, depth).join('/');
          if (!statSync(join(src, directory, 'index.ts'), { throwIfNoEntry: false })) continue;
          if (mapNames(mapOf(directory), parts.slice(depth).join('/'))) return false;
        }
        return true;
      });
    expect(missing).toEqual([]);
  });

  it('the check sees a module that is not named, and accepts one named by path or by its directory', () => {
    const map = '\n * Modules:\n * - classify.ts   reads\n * - supervise/*   the supervisor\n * - qualification/   records\n';
    expect(mapNames(map, 'classify.ts')).toBe(true);
    expect(mapNames(map, 'supervise/deadline.ts')).toBe(true);
    expect(mapNames(map, 'qualification/store.ts')).toBe(true);
    expect(mapNames(map, 'outcome.ts')).toBe(false);
    expect(mapNames(map, 'stream/line-splitter.ts')).toBe(false);
  });
});
