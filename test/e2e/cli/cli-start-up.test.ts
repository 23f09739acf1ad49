import { chmod, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { claudeCodeAdapterPath } from '@statecraft/adapter-claude-code';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft, STATECRAFT_BIN } from '../../fixtures/statecraft-cli.js';

const BUNDLE_DIRECTORY = fileURLToPath(new URL('../../../packages/cli/dist/bundle/', import.meta.url));
const CLI_PACKAGE = fileURLToPath(new URL('../../../packages/cli/package.json', import.meta.url));
const LOADED_MODULES_PRELOAD = fileURLToPath(new URL('../../fixtures/report-loaded-modules.cjs', import.meta.url));
const targets = useTestTargets();
const scratch = scratchDirectories();

/** Runs `statecraft <args>` and answers its exit code and the Node built-ins the process loaded. */
async function builtinsLoadedBy(
  args: readonly string[],
): Promise<{ exitCode: number; stdout: string; builtins: string[]; args: readonly string[]; stderr: string }> {
  const report = join(await scratch.make('statecraft-loaded-modules-'), 'builtins.txt');
  const run = await runStatecraft(args, {
    home: targets.home.path,
    env: { NODE_OPTIONS: `--require ${LOADED_MODULES_PRELOAD}`, STATECRAFT_TEST_LOADED_MODULES_FILE: report },
  });
  const builtins = (await readFile(report, 'utf8')).split('\n').filter((name) => name !== '');
  return { ...run, builtins };
}

/** The bundle's files `entry` imports statically, transitively: the modules they hold and the packages those come from. */
async function staticallyReached(entry: string): Promise<{ sources: string[]; origins: Set<string | undefined> }> {
  const reached = new Set<string>();
  const toRead = [entry];
  const sources: string[] = [];
  for (let name = toRead.pop(); name !== undefined; name = toRead.pop()) {
    if (reached.has(name)) continue;
    reached.add(name);
    const text = await readFile(join(BUNDLE_DIRECTORY, name), 'utf8');
    toRead.push(...[...text.matchAll(/(?:\bfrom\s*|^import\s*)"\.\/([^"]+\.mjs)"/gm)].map((match) => match[1]!));
    sources.push(...[...text.matchAll(/^\/\/ ((?:node_modules|packages)\/\S+)$/gm)].map((match) => match[1]!));
  }
  const origins = new Set(sources.map((source) => /^node_modules\/((?:@[^/]+\/)?[^/]+)|^packages\/([^/]+)/.exec(source)?.slice(1).find(Boolean)));
  return { sources, origins };
}

/** Every file of the bundle: its name, path and text. */
async function bundleFiles(): Promise<{ name: string; path: string; text: string }[]> {
  const names = (await readdir(BUNDLE_DIRECTORY)).filter((name) => name.endsWith('.mjs'));
  return Promise.all(names.map(async (name) => ({ name, path: join(BUNDLE_DIRECTORY, name), text: await readFile(join(BUNDLE_DIRECTORY, name), 'utf8') })));
}

/** The chunk of the bundle a verb's module made (`<module>-<hash>.mjs`), if there is one. */
async function verbChunk(module: string): Promise<string | undefined> {
  return (await readdir(BUNDLE_DIRECTORY)).find((name) => new RegExp(`^${module}-[A-Z0-9]+\\.mjs$`).test(name));
}

// Start-up is paid by every verb (issue 9: the benchmarks meet their targets): a provider package
// (its schemas, its model double's HTTP server, its suite driver) is evaluated only when its adapter
// is named. `node:http` is used by the model doubles alone, so its absence shows they never ran.
describe('a start of the CLI evaluates only what its verb needs', () => {
  it('`statecraft run` through the fixture adapter loads no provider package: no model double, so no node:http', async () => {
    const run = await builtinsLoadedBy(['run', targets.repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json']);
    expect(parseJson<{ outcome: string }>(run).outcome).toBe('completed');
    expect(run.exitCode).toBe(0);
    expect(run.builtins).toContain('child_process');
    expect(run.builtins).not.toContain('http');
  });

  it('`statecraft --help` loads no provider package either', async () => {
    const help = await builtinsLoadedBy(['--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('Usage: statecraft');
    expect(help.builtins).not.toContain('http');
  });

  it("the bundle's entry, with what it imports statically, holds commander and the CLI's wiring alone: no package, no zod", async () => {
    // Every package is loaded by the verb that runs (commands/load-packages.ts): a static import
    // of one from main.ts or a registration would compile it at every start, and would build its
    // schemas before zod-jitless.ts ran.
    const { origins } = await staticallyReached('statecraft.mjs');
    expect([...origins].sort()).toEqual(['cli', 'commander']);
  });

  it("`run`'s verb, with what it imports statically, holds no retry's reading of earlier records", async () => {
    // Compiled at every `statecraft run`: only --retry reads an earlier run's records before the attempt.
    const verb = await verbChunk('run-from-flags');
    expect(verb).toBeDefined();
    const { origins, sources } = await staticallyReached(verb!);
    expect(origins).toContain('run');
    expect(sources.filter((source) => /commands\/(retry-defaults|run-reference)\.js$/.test(source))).toEqual([]);
  });

  it('`run list` and `run show`, with what they import statically, hold none of the run package: they read records, and start no attempt', async () => {
    // Compiled at every listing: run's launch, suite and land, with execa, are ~450 kB a reader never calls.
    const verb = await verbChunk('run-show');
    expect(verb).toBeDefined();
    const { origins } = await staticallyReached(verb!);
    expect(origins).toContain('records');
    expect([...origins].filter((origin) => origin === 'run' || origin === 'execa')).toEqual([]);
  });

  it('the command and its bundle keep no compiled code between starts: no compile cache, code cache, snapshot or tunables', async () => {
    // A cache node reads back is code it runs as the operator, from a directory an agent with
    // --boundary none can write (decision 0201).
    const texts = [{ path: STATECRAFT_BIN, text: await readFile(STATECRAFT_BIN, 'utf8') }, ...(await bundleFiles())];
    const tricks = /enableCompileCache|NODE_COMPILE_CACHE|cachedData|produceCachedData|startupSnapshot|snapshot-blob|GLIBC_TUNABLES/;
    expect(texts.filter(({ text }) => tricks.test(text)).map(({ path, text }) => `${path}: ${tricks.exec(text)?.[0]}`)).toEqual([]);
  });

  it('the bundle leaves out the zod no verb runs: the JIT compiler (verbs run jitless) and the JSON Schema reading', async () => {
    // Each verb compiles the zod chunk at its start; zod's namespace taken as one value (`import
    // { z }`) keeps every export it has, used or not.
    const bundle = (await bundleFiles()).map((file) => file.text).join('\n');
    const zod = [...bundle.matchAll(/^\/\/ node_modules\/zod\/(\S+)$/gm)].map((match) => match[1] ?? '');
    expect(zod).toContain('v4/core/schemas.js');
    expect(zod.filter((module) => /(^|\/)(compile|from-json-schema|json-schema-generator|json-schema)\.js$/.test(module))).toEqual([]);
  });

  it("only the bundle's chunks that name `require` make one as they load", async () => {
    // Each chunk that makes one builds a Module and its lookup paths at every start that loads it.
    const making: string[] = [];
    const naming: string[] = [];
    for (const { name, text } of await bundleFiles()) {
      const rest = text.replace(/^import \{ createRequire as (\w+) \} from 'node:module'; const require = \1\(import\.meta\.url\);\n/, '');
      if (rest !== text) making.push(name);
      if (/\brequire\b/.test(rest)) naming.push(name);
    }
    // commander is CommonJS and requires node's modules: its chunk still makes one.
    expect(making.length).toBeGreaterThan(0);
    expect(making.sort()).toEqual(naming.sort());
  });

  it("the bundle carries zod's English messages alone (every start reads and hashes the whole file), and they still name what is wrong", async () => {
    const bundle = (await bundleFiles()).map((file) => file.text).join('\n');
    const locales = [...bundle.matchAll(/^\/\/ node_modules\/zod\/v4\/locales\/(\S+)$/gm)].map((match) => match[1]);
    expect(locales).toEqual(['en.js']);
    // A manifest zod refuses: the message is zod's English one, naming the file and the field.
    const directory = await scratch.make('statecraft-bad-manifest-');
    const adapter = join(directory, 'adapter');
    await writeFile(adapter, '#!/bin/sh\nexit 0\n');
    await chmod(adapter, 0o755);
    await writeFile(`${adapter}.manifest.json`, JSON.stringify({ name: 5 }));
    const run = await builtinsLoadedBy(['run', targets.repository.path, '--adapter', adapter, '--prompt', 'scenario: complete', '--json']);
    expect(run.exitCode).toBe(2);
    expect(parseJson<{ refused: { message: string } }>(run).refused.message).toContain(
      `${adapter}.manifest.json: field "name": Invalid input: expected string, received number`,
    );
  });
});

describe('the command is a node script', () => {
  it('runs when node is given it, with or without NODE_OPTIONS, and prints the package version', async () => {
    const { version } = JSON.parse(await readFile(CLI_PACKAGE, 'utf8')) as { version: string };
    for (const [words, env] of [
      [['--version'], {}],
      [['-V'], { NODE_OPTIONS: '--no-warnings' }],
      [['--version', '--json'], {}],
    ] as const) {
      const ran = await execa(process.execPath, [STATECRAFT_BIN, ...words], { env: { PATH: process.env.PATH ?? '', ...env }, extendEnv: false, reject: false });
      expect(ran.exitCode, ran.stderr).toBe(0);
      expect(ran.stdout).toBe(version);
    }
    const help = await execa(process.execPath, [STATECRAFT_BIN, 'run', '--help'], { reject: false });
    expect(help.exitCode, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: statecraft run');
  });
});

// The provider adapter starts on every attempt (issue 10: (f), statecraft's time around the real
// provider): its one-file bundle (R3.1) carries the seam's modules it runs, not the supervisor's.
describe("a provider adapter's bundle holds only the seam it runs", () => {
  it("the Claude Code adapter's bundle has none of the seam's supervisor, suite, receipt or qualification modules", async () => {
    const bundle = await readFile(claudeCodeAdapterPath(), 'utf8');
    const seamModules = [...bundle.matchAll(/^\/\/ packages\/adapter\/dist\/(\S+)$/gm)].map((match) => match[1]);
    expect(seamModules).toContain('protocol/events.js');
    expect(seamModules.filter((module) => /^(supervise|suite|receipt|qualification)\//.test(module ?? ''))).toEqual([]);
  });
});
