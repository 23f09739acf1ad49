// The bundling every adapter package shares: its executable as ONE file, so the content digest
// covers every line it runs (R3.1), and its sidecar manifest beside it (R2.2), validated by the
// seam's schema. Each adapter's scripts/bundle.mjs names its package, manifest and file name.
import { build } from 'esbuild';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ManifestSchema } from '@statecraft/adapter';
import { englishZodMessagesOnly } from './esbuild-english-zod-messages.mjs';

/** Bundles `<packageRoot>/src/adapter/main.ts` into `<packageRoot>/dist/bundle/<adapterFile>` and writes `<file>.manifest.json`. */
export async function bundleAdapter({ packageRoot, manifest, adapterFile }) {
  const outfile = join(packageRoot, 'dist', 'bundle', adapterFile);
  await mkdir(dirname(outfile), { recursive: true });
  await build({
    entryPoints: [join(packageRoot, 'src', 'adapter', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // No timestamps, and the path comments relative to the repository root whatever the caller's
    // working directory: the same sources give the same digest.
    absWorkingDir: join(packageRoot, '..', '..'),
    legalComments: 'none',
    banner: { js: '#!/usr/bin/env node' },
    logLevel: 'warning',
    // zod's English messages alone: the adapter starts on every attempt (issue 10's (f) figure).
    plugins: [englishZodMessagesOnly()],
  });
  await chmod(outfile, 0o755);
  await writeFile(`${outfile}.manifest.json`, `${JSON.stringify(ManifestSchema.parse(manifest), null, 2)}\n`);
  process.stdout.write(`bundled ${outfile}\n`);
}
