// Bundles the `statecraft` CLI into ONE CommonJS file (dist/bundle/statecraft.cjs), which
// bin/statecraft.cjs compiles with a V8 code cache: start-up then reads one script instead of
// walking hundreds of small ESM files through Node's loader (zod, execa, commander and the
// @statecraft/* packages), and skips most of compiling it.
// Run after `tsc -b` (root `npm run build`): the bundle is made from the tsc output
// (dist/main.js), so it runs exactly the code the tests build; dist/main.js keeps working alone.
//
// Nothing bundled may locate files from its own module (`import.meta.url` is the bundle's here):
// packages find their files by package name (see @statecraft/adapter's fixture-adapter-path.ts
// and @statecraft/adapter-claude-code's paths.ts).
import { build } from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { englishZodMessagesOnly } from '../../adapter/scripts/esbuild-english-zod-messages.mjs';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(packageRoot, 'dist', 'bundle', 'statecraft.cjs');

await mkdir(dirname(outfile), { recursive: true });
await build({
  entryPoints: [join(packageRoot, 'dist', 'main.js')],
  outfile,
  bundle: true,
  platform: 'node',
  // CommonJS, not ESM: only a classic script can be compiled with V8 cached data on Node 20
  // (bin/statecraft.cjs), which saves most of the bundle's compile time at every start.
  format: 'cjs',
  target: 'node20',
  // The provider's own package (huge, with a native binary) is never inlined: it is only
  // resolved by path, from @statecraft/adapter-claude-code.
  external: ['@anthropic-ai/*', '@openai/*'],
  // `import.meta.url` has no meaning in CommonJS: give the bundle its own file's URL (packages
  // find their files by package name, resolved from here).
  define: { 'import.meta.url': '__statecraftBundleUrl' },
  banner: { js: "const __statecraftBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  // Paths in comments relative to the repository root whatever the caller's working directory.
  absWorkingDir: join(packageRoot, '..', '..'),
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [englishZodMessagesOnly()],
});
await keepBundleAscii(outfile);
// A new bundle invalidates the old code cache; the first start writes the new one beside it,
// holding every function that start compiled. Prime it with the main verb, `run`, on a throwaway
// repository through the fixture adapter, so an operator's first run is not the one to pay.
await rm(`${outfile}.v8-cache`, { force: true });
await rm(join(dirname(outfile), 'statecraft.mjs'), { force: true });
await primeCodeCache();
await buildStartupSnapshot();
process.stdout.write(`bundled ${outfile}\n`);

async function primeCodeCache() {
  const scratch = await mkdtemp(join(tmpdir(), 'statecraft-prime-'));
  try {
    const repository = join(scratch, 'repository');
    await mkdir(repository);
    const git = (...args) =>
      execFileSync('git', ['-c', 'user.name=statecraft', '-c', 'user.email=build@statecraft.invalid', ...args], { cwd: repository, stdio: 'ignore' });
    git('init', '--quiet');
    git('commit', '--quiet', '--allow-empty', '-m', 'prime');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch, STATECRAFT_HOME: join(scratch, 'home') };
    const bin = join(packageRoot, 'bin', 'statecraft.cjs');
    execFileSync(process.execPath, [bin, 'run', repository, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], { env, stdio: 'ignore' });
  } catch (error) {
    // Not fatal: without a primed cache the first start writes one (for whatever it ran).
    process.stderr.write(`statecraft: the code cache was not primed (${error.message}); the first start will write it\n`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Builds the V8 startup snapshot `bin/statecraft` starts from (scripts/snapshot-builder.cjs says what
 * it holds), then its key: the bundle's path and what identifies the node that built it and the
 * bundle it was built from, in the words `stat` prints — bin/statecraft uses the snapshot only when
 * the node it would start and the bundle beside it still give the same line. The key is written
 * last, after the old one was removed first: a build stopped halfway leaves no key, and the CLI
 * starts from its code cache (bin/statecraft.cjs) as before.
 */
async function buildStartupSnapshot() {
  const snapshot = join(dirname(outfile), 'statecraft.snapshot');
  const key = `${snapshot}.key`;
  await rm(key, { force: true });
  await rm(snapshot, { force: true });
  const built = spawnSync(
    process.execPath,
    ['--snapshot-blob', snapshot, '--build-snapshot', join(packageRoot, 'scripts', 'snapshot-builder.cjs')],
    // Node warns that child_process and tty are "not yet fully verified" in snapshots: the bundle
    // loads them but opens nothing at load, so the warning is not repeated at every build.
    { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', NODE_NO_WARNINGS: '1' } },
  );
  if (built.status !== 0) {
    process.stderr.write(`statecraft: the startup snapshot was not built (${built.stderr || built.error?.message}); the CLI starts from its code cache\n`);
    return;
  }
  // The same format bin/statecraft gives `stat`: device, inode, size, and modification and change
  // times in nanoseconds, of node and of the bundle.
  const identity = execFileSync('stat', ['-L', '--printf=%d:%i:%s:%.9Y:%.9Z ', '--', process.execPath, outfile], { encoding: 'utf8' });
  await writeFile(`${key}.partial`, `${await realpath(outfile)} ${identity}\n`);
  await rename(`${key}.partial`, key);
}

/**
 * esbuild escapes every non-ASCII character in code, but copies comments as written, and a few
 * carry one (an em dash, a middle dot). One such character makes Node decode the whole 1.6 MB
 * bundle on its slow UTF-8 path into a two-byte string, on every start; escaped inside their
 * comments they change nothing that runs.
 */
async function keepBundleAscii(file) {
  const text = await readFile(file, 'utf8');
  // eslint-disable-next-line no-control-regex -- the ASCII range itself
  const ascii = text.replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== text) await writeFile(file, ascii);
}
