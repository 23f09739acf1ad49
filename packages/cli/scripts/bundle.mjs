// Bundles the `statecraft` CLI into ONE file (dist/bundle/statecraft.mjs), which bin/statecraft.js
// loads: start-up then reads one module instead of walking hundreds of small ESM files through
// Node's loader (zod, execa, commander and the @statecraft/* packages), roughly halving it.
// Run after `tsc -b` (root `npm run build`): the bundle is made from the tsc output
// (dist/main.js), so it runs exactly the code the tests build; dist/main.js keeps working alone.
//
// Nothing bundled may locate files from its own module (`import.meta.url` is the bundle's here):
// packages find their files by package name (see @statecraft/adapter's fixture-adapter-path.ts
// and @statecraft/adapter-claude-code's paths.ts).
import { build } from 'esbuild';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(packageRoot, 'dist', 'bundle', 'statecraft.mjs');

await mkdir(dirname(outfile), { recursive: true });
await build({
  entryPoints: [join(packageRoot, 'dist', 'main.js')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // The provider's own package (huge, with a native binary) is never inlined: it is only
  // resolved by path, from @statecraft/adapter-claude-code.
  external: ['@anthropic-ai/*'],
  // CommonJS dependencies (tmp-promise → tmp, semver) call `require` for Node built-ins, which
  // an ESM bundle lacks: give the bundle one.
  banner: {
    js: "import { createRequire as __statecraftCreateRequire } from 'node:module';\nconst require = __statecraftCreateRequire(import.meta.url);",
  },
  // Paths in comments relative to the repository root whatever the caller's working directory.
  absWorkingDir: join(packageRoot, '..', '..'),
  legalComments: 'none',
  logLevel: 'warning',
});
process.stdout.write(`bundled ${outfile}\n`);
