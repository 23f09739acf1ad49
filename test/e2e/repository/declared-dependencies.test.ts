import { readdirSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Declared dependencies are exactly the used ones: a package that imports what it
// does not declare works only by the accident of hoisting, and one that declares what it never uses
// makes every install and every review pay for nothing.

const root = fileURLToPath(new URL('../../..', import.meta.url));
const packagesDir = join(root, 'packages');
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;

interface Manifest {
  name?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
}

/**
 * Root dev dependencies used without being imported, each with the reason. Anything not here must
 * be imported somewhere, or named as a command by a script.
 */
const USED_WITHOUT_IMPORT: Record<string, string> = {
  vite: 'the peer dependency vitest runs on, pinned so the pair is known (docs/architecture.md: vitest 4.1.12 with vite 8.3.8)',
  '@types/node': 'the types of every node: import',
  '@types/semver': 'the types of semver, which @statecraft/adapter imports',
  '@types/tmp': 'the types of tmp, whose dirSync tmp-promise re-exports for the test helpers that make scratch directories synchronously',
  '@vitest/coverage-v8': 'the coverage provider vitest loads by name for npm run coverage',
};

function filesUnder(path: string): string[] {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return [];
  if (stat.isFile()) return SOURCE.test(path) ? [path] : [];
  return readdirSync(path)
    .filter((entry) => entry !== 'node_modules' && entry !== 'dist' && entry !== 'testdata')
    .flatMap((entry) => filesUnder(join(path, entry)));
}

/** The package a module specifier names (`@scope/name/sub` → `@scope/name`), or undefined for a relative path or a builtin. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:') || isBuiltin(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Every package a file imports, exports from, dynamically imports or requires. */
export function packagesImportedBy(text: string): Set<string> {
  const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
  return new Set(specifiers.map(packageOf).filter((name): name is string => name !== undefined));
}

/** Every package a file finds on disk without importing it: `require.resolve('pkg/package.json')`, a provider binary. */
export function packagesResolvedBy(text: string): Set<string> {
  const specifiers = [...text.matchAll(/(?:\brequire|\))\.resolve\(\s*['"]([^'"]+)['"]\s*\)/g)].map((match) => match[1] ?? '');
  return new Set(specifiers.map(packageOf).filter((name): name is string => name !== undefined));
}

function packagesUsedBy(text: string): Set<string> {
  return new Set([...packagesImportedBy(text), ...packagesResolvedBy(text)]);
}

function usedUnder(paths: string[], reading: (text: string) => Set<string> = packagesUsedBy): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const file of paths.flatMap(filesUnder)) {
    // This file's own samples are what the checker must see, not what the project uses.
    if (file === fileURLToPath(import.meta.url)) continue;
    for (const name of reading(readFileSync(file, 'utf8'))) used.set(name, [...(used.get(name) ?? []), relative(root, file)]);
  }
  return used;
}

function manifestAt(directory: string): Manifest {
  return JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as Manifest;
}

const rootManifest = manifestAt(root);
const rootDev = Object.keys(rootManifest.devDependencies ?? {});
const workspaces = readdirSync(packagesDir).filter((entry) => statSync(join(packagesDir, entry, 'package.json'), { throwIfNoEntry: false }));

describe('declared dependencies are the used ones', () => {
  it.each(workspaces)('%s: what its shipped code imports is in its dependencies, and every dependency is imported', (name) => {
    const directory = join(packagesDir, name);
    const manifest = manifestAt(directory);
    const own = manifest.name ?? '';
    // A package found on disk (a pinned provider binary for the suite) is a development dependency, not an import.
    const runtime = usedUnder(
      ['src', 'bin', 'fixture'].map((part) => join(directory, part)),
      packagesImportedBy,
    );
    runtime.delete(own);
    const declared = Object.keys(manifest.dependencies ?? {});
    const undeclared = [...runtime.keys()].filter((used) => !declared.includes(used)).map((used) => `${used} (${runtime.get(used)?.[0] ?? ''})`);
    const unused = declared.filter((dependency) => !runtime.has(dependency));
    expect({ undeclared, unused }).toEqual({ undeclared: [], unused: [] });
  });

  it.each(workspaces)('%s: what its tests and scripts import is declared here or at the root, and every dev dependency is used', (name) => {
    const directory = join(packagesDir, name);
    const manifest = manifestAt(directory);
    const own = manifest.name ?? '';
    const tooling = usedUnder(['test', 'scripts'].map((part) => join(directory, part)));
    tooling.delete(own);
    const declared = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {}), ...rootDev];
    const undeclared = [...tooling.keys()].filter((used) => !declared.includes(used)).map((used) => `${used} (${tooling.get(used)?.[0] ?? ''})`);
    const everything = usedUnder([directory]);
    const unusedDev = Object.keys(manifest.devDependencies ?? {}).filter((dependency) => !everything.has(dependency));
    expect({ undeclared, unusedDev }).toEqual({ undeclared: [], unusedDev: [] });
  });

  it('the root: tests, benchmarks and configuration import only what the root declares, and every root dev dependency is used', () => {
    const workspaceNames = workspaces.map((name) => manifestAt(join(packagesDir, name)).name ?? '');
    const rootFiles = readdirSync(root)
      .filter((entry) => SOURCE.test(entry))
      .map((entry) => join(root, entry));
    const used = usedUnder([join(root, 'test'), join(root, 'bench'), ...rootFiles]);
    const undeclared = [...used.keys()]
      .filter((name) => !rootDev.includes(name) && !workspaceNames.includes(name))
      .map((name) => `${name} (${used.get(name)?.[0] ?? ''})`);
    const everywhere = usedUnder([root]);
    const scripts = Object.values(rootManifest.scripts ?? {}).join(' ');
    const commandOf: Record<string, string> = { typescript: 'tsc', eslint: 'eslint', vitest: 'vitest', 'npm-run-all2': 'run-p' };
    const unused = rootDev.filter(
      (name) => !everywhere.has(name) && !new RegExp(`\\b${commandOf[name] ?? name}\\b`).test(scripts) && USED_WITHOUT_IMPORT[name] === undefined,
    );
    expect({ undeclared, unused }).toEqual({ undeclared: [], unused: [] });
  });

  it('the checker sees an undeclared import, a resolve() and ignores relative paths and builtins', () => {
    const sample = [
      "import { z } from 'zod';",
      "import type { Options } from '@scope/pkg/sub/path.js';",
      "const x = await import('left-pad');",
      "import { join } from 'node:path';",
      "import { readFile } from 'fs';",
      "import { a } from './a.js';",
      "const p = require.resolve('@vendor/binary/package.json');",
    ].join('\n');
    expect([...packagesImportedBy(sample)].sort()).toEqual(['@scope/pkg', 'left-pad', 'zod']);
    expect([...packagesResolvedBy(sample)]).toEqual(['@vendor/binary']);
    expect([...packagesResolvedBy("await new Promise((resolve) => resolve('deadline'));")]).toEqual([]);
  });
});
