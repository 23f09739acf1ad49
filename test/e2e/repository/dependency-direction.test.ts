import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// docs/architecture.md: cli → {acceptance, run, records, environment} (and the adapters by name, and the
// protocol's types), acceptance → {run, records, environment, adapter}, run → {records, environment, adapter},
// records → adapter, environment → adapter, adapter-claude-code → adapter, adapter-codex → adapter;
// only cli knows adapters by name; nothing imports cli.
// The graph is checked twice: in each package.json and in every @statecraft/* import under src/.
const ALLOWED: Record<string, readonly string[]> = {
  adapter: [],
  environment: ['adapter'],
  records: ['adapter'],
  'adapter-claude-code': ['adapter'],
  'adapter-codex': ['adapter'],
  run: ['adapter', 'environment', 'records'],
  acceptance: ['adapter', 'environment', 'records', 'run'],
  cli: ['acceptance', 'adapter', 'adapter-claude-code', 'adapter-codex', 'environment', 'records', 'run'],
};

const packagesDir = fileURLToPath(new URL('../../../packages', import.meta.url));
const INTERNAL = /@statecraft\/([a-z-]+)/g;

function filesUnder(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path).flatMap((entry) => filesUnder(join(path, entry)));
}

function declaredInternal(name: string): string[] {
  const manifest = JSON.parse(readFileSync(join(packagesDir, name, 'package.json'), 'utf8')) as Record<string, unknown>;
  const fields = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];
  const names = fields.flatMap((field) => Object.keys((manifest[field] ?? {}) as Record<string, string>));
  return names.filter((dependency) => dependency.startsWith('@statecraft/')).map((dependency) => dependency.slice('@statecraft/'.length));
}

// Every @statecraft/<name> a source file mentions in an import, export-from or dynamic import.
function importedInternal(name: string): { file: string; target: string }[] {
  const sources = filesUnder(join(packagesDir, name, 'src')).filter((file) => /\.(ts|mts|js|mjs)$/.test(file));
  return sources.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    const specifiers = [...text.matchAll(/(?:from\s*|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)].map((match) => match[1] ?? '');
    return specifiers.flatMap((specifier) => [...specifier.matchAll(INTERNAL)].map((match) => ({ file: relative(packagesDir, file), target: match[1] ?? '' })));
  });
}

describe('dependency direction between the packages (docs/architecture.md)', () => {
  it('the package list is exactly the packages the graph names', () => {
    const present = readdirSync(packagesDir).filter((entry) => statSync(join(packagesDir, entry, 'package.json'), { throwIfNoEntry: false }));
    expect(present.sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  it.each(Object.keys(ALLOWED))('%s declares only the internal dependencies the graph allows', (name) => {
    const disallowed = declaredInternal(name).filter((target) => !ALLOWED[name]?.includes(target));
    expect(disallowed).toEqual([]);
  });

  it.each(Object.keys(ALLOWED))('%s imports only the internal packages the graph allows, and only ones it declares', (name) => {
    const declared = declaredInternal(name);
    const offending = importedInternal(name).filter(({ target }) => !ALLOWED[name]?.includes(target) || !declared.includes(target));
    expect(offending).toEqual([]);
  });

  it('nothing imports cli', () => {
    const importers = Object.keys(ALLOWED)
      .filter((name) => name !== 'cli')
      .flatMap((name) =>
        [...declaredInternal(name), ...importedInternal(name).map(({ target }) => target)].filter((target) => target === 'cli').map(() => name),
      );
    expect(importers).toEqual([]);
  });

  // The contract an adapter author builds against spawns nothing (docs/architecture.md): supervision,
  // the boundary and the suite, which do, live in run and environment; an adapter spawns its provider itself.
  it('packages/adapter/src imports no child_process, execa or worker_threads', () => {
    const spawning = /(?:from\s*|import\s*\(\s*|require\s*\(\s*)['"](?:node:)?(?:child_process|worker_threads)['"]|['"]execa['"]/;
    const offending = filesUnder(join(packagesDir, 'adapter', 'src')).filter((file) => spawning.test(readFileSync(file, 'utf8')));
    expect(offending.map((file) => relative(packagesDir, file))).toEqual([]);
    expect(spawning.test("import { spawn } from 'node:child_process';")).toBe(true);
    expect(spawning.test("const { execa } = await import('execa');")).toBe(true);
  });

  // Acceptance judges and does nothing else (docs/architecture.md): landing and pruning are the
  // workspace's, so run's; the locked step they share with accept is the lock's, so records'.
  it('acceptance holds only its judgement: judge/ and the index', () => {
    const acceptanceSrc = join(packagesDir, 'acceptance', 'src');
    const elsewhere = filesUnder(acceptanceSrc)
      .map((file) => relative(acceptanceSrc, file))
      .filter((file) => file !== 'index.ts' && !file.startsWith('judge/'));
    expect(elsewhere).toEqual([]);
    const exported = [...readFileSync(join(acceptanceSrc, 'index.ts'), 'utf8').matchAll(/from '\.\/([^']+)'/g)].map((match) => match[1] ?? '');
    expect(exported.filter((module) => !module.startsWith('judge/'))).toEqual([]);
    expect(exported.length).toBeGreaterThan(0);
  });

  it('the import scan sees the imports that exist (it cannot pass by reading nothing)', () => {
    expect(importedInternal('run').some(({ target }) => target === 'adapter')).toBe(true);
    expect(importedInternal('adapter-claude-code').some(({ target }) => target === 'adapter')).toBe(true);
  });
});
