// The bundling every adapter package shares: its executable as ONE file, so the content digest
// covers every line it runs (R3.1), and its sidecar manifest beside it (R2.2), validated by the
// seam's schema. Each adapter's scripts/bundle.mjs names its package, manifest and file name.
import { build } from 'esbuild';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ManifestSchema } from '@statecraft/adapter';
import { englishZodMessagesOnly } from './esbuild-english-zod-messages.mjs';

/**
 * The output format an adapter file's name asks for. `.cjs`: a classic script, which Node starts
 * without its ESM loader (an adapter starts on every attempt; decision 0013). `.mjs`: an ES
 * module. Node reads the format from the extension alone, so the two must agree.
 */
function formatFor(adapterFile) {
  if (adapterFile.endsWith('.cjs')) return 'cjs';
  if (adapterFile.endsWith('.mjs')) return 'esm';
  throw new Error(`adapter file ${adapterFile}: name it *.cjs (CommonJS) or *.mjs (ESM), so Node runs it in the format it is bundled in`);
}

/** Bundles `<packageRoot>/src/adapter/main.ts` into `<packageRoot>/dist/bundle/<adapterFile>` and writes `<file>.manifest.json`. */
export async function bundleAdapter({ packageRoot, manifest, adapterFile }) {
  const outfile = join(packageRoot, 'dist', 'bundle', adapterFile);
  const format = formatFor(adapterFile);
  await mkdir(dirname(outfile), { recursive: true });
  await build({
    entryPoints: [join(packageRoot, 'src', 'adapter', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format,
    target: 'node20',
    // `import.meta.url` has no meaning in CommonJS: a module that locates files from it gets the
    // bundle's own URL, as in the CLI's bundle (packages find their files by package name).
    ...(format === 'cjs' ? { define: { 'import.meta.url': '__statecraftAdapterUrl' } } : {}),
    // No timestamps, and the path comments relative to the repository root whatever the caller's
    // working directory: the same sources give the same digest.
    absWorkingDir: join(packageRoot, '..', '..'),
    legalComments: 'none',
    // A CommonJS script is strict only when the directive comes first, before the banner's code;
    // the ES module was strict by definition.
    banner: {
      js:
        format === 'cjs'
          ? "#!/usr/bin/env node\n'use strict';\nconst __statecraftAdapterUrl = require('node:url').pathToFileURL(__filename).href;"
          : '#!/usr/bin/env node',
    },
    logLevel: 'warning',
    // zod's English messages alone: the adapter starts on every attempt (decision 0013).
    plugins: [englishZodMessagesOnly()],
  });
  await chmod(outfile, 0o755);
  await writeFile(`${outfile}.manifest.json`, `${JSON.stringify(ManifestSchema.parse(manifest), null, 2)}\n`);
  process.stdout.write(`bundled ${outfile}\n`);
}
