// Bundles the Codex adapter into ONE executable file so its content digest covers every
// line it runs (R3.1), and writes its sidecar manifest beside it (R2.2), validated by the seam's
// schema (the shared steps: packages/adapter/scripts/bundle-adapter.mjs). Run after `tsc -b` (root `npm run build`): the manifest is read from the built package.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleAdapter } from '../../adapter/scripts/bundle-adapter.mjs';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const { CODEX_MANIFEST } = await import(join(packageRoot, 'dist', 'manifest.js'));
const { CODEX_ADAPTER_FILE } = await import(join(packageRoot, 'dist', 'paths.js'));
await bundleAdapter({ packageRoot, manifest: CODEX_MANIFEST, adapterFile: CODEX_ADAPTER_FILE });
