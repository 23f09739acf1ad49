// Bundles the Codex adapter into ONE executable file so its content digest covers every
// line it runs (R3.1), and writes its sidecar manifest beside it (R2.2), validated by the seam's
// schema. Run after `tsc -b` (root `npm run build`): the manifest is read from the built package.
import { build } from 'esbuild';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ManifestSchema } from '@statecraft/adapter';
import { englishZodMessagesOnly } from '../../adapter/scripts/esbuild-english-zod-messages.mjs';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const { CODEX_MANIFEST } = await import(join(packageRoot, 'dist', 'manifest.js'));
const { CODEX_ADAPTER_FILE } = await import(join(packageRoot, 'dist', 'paths.js'));
const outfile = join(packageRoot, 'dist', 'bundle', CODEX_ADAPTER_FILE);

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
const manifest = ManifestSchema.parse(CODEX_MANIFEST);
await writeFile(`${outfile}.manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
process.stdout.write(`bundled ${outfile}\n`);
