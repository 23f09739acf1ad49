// Bundles the `statecraft` CLI with esbuild into dist/bundle/: one ES module entry
// (statecraft.mjs, what bin/statecraft imports) and the chunks it shares with each verb. A verb's
// code is imported when that verb runs (each register-*.ts imports its verb's module in its
// action), so esbuild splits it into a chunk of its own, and a start reads and compiles only what
// the verb it runs needs.
// Run after `tsc -b` (root `npm run build`): the bundle is made from the tsc output
// (dist/main.js), so it runs exactly the code the tests build; dist/main.js keeps working alone.
//
// Bundled modules share one `import.meta.url` per chunk, so packages find their files by package
// name (see @statecraft/adapter's package-root.ts), never from their own module's location.
import { build } from 'esbuild';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { englishZodMessagesOnly } from '../../adapter/scripts/esbuild-english-zod-messages.mjs';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const REQUIRE_BANNER = "import { createRequire as __statecraftCreateRequire } from 'node:module'; const require = __statecraftCreateRequire(import.meta.url);";
const outdir = join(packageRoot, 'dist', 'bundle');

await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
await build({
  entryPoints: { statecraft: join(packageRoot, 'dist', 'main.js') },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // The provider's own package (huge, with a native binary) is never inlined: it is only
  // resolved by path, from @statecraft/adapter-claude-code.
  external: ['@anthropic-ai/*', '@openai/*'],
  // commander is CommonJS and requires node's modules: an ES module has no `require` of its own.
  banner: { js: REQUIRE_BANNER },
  // Paths in comments relative to the repository root whatever the caller's working directory.
  absWorkingDir: join(packageRoot, '..', '..'),
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [englishZodMessagesOnly()],
});
for (const file of await readdir(outdir)) {
  const path = join(outdir, file);
  const text = await readFile(path, 'utf8');
  const final = keepAscii(withoutUnusedRequire(text));
  if (final !== text) await writeFile(path, final);
}
process.stdout.write(`bundled ${outdir}\n`);

/**
 * esbuild escapes every non-ASCII character in code but copies comments as written, and a few
 * carry one (an em dash, a middle dot): one such character makes node decode the whole file on its
 * slow UTF-8 path at every start. Escaped inside their comments they change nothing that runs.
 */
function keepAscii(text) {
  // eslint-disable-next-line no-control-regex -- the ASCII range itself
  return text.replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * esbuild puts the banner on every chunk, and each makes its `require` at evaluation (a Module
 * and its lookup paths): most chunks are ES modules that never name it. A chunk whose code does
 * not name `require` at all loses the banner; the others (commander's, esbuild's `__require`
 * helper's) keep it.
 */
function withoutUnusedRequire(text) {
  const rest = text.replace(`${REQUIRE_BANNER}\n`, '');
  return /\brequire\b/.test(rest) ? text : rest;
}
