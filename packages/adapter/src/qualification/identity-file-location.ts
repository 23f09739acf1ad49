import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ProviderIdentityFile } from '../protocol/manifest.js';

export type IdentityFileLocation = { kind: 'located'; path: string } | { kind: 'not-found'; message: string };

/**
 * Where a declared identity file is, found from the provider executable's real path the way a
 * Node launcher's `require.resolve('<package>/package.json')` finds its package: the first
 * `<directory>/node_modules/<package>/package.json` from the launcher's directory upwards, skipping
 * directories that are themselves `node_modules` (Node's own lookup order). Only the node_modules
 * chain is searched: NODE_PATH and the global folders depend on the environment the launcher is
 * given, which is not this one, so a package found only there is not found.
 */
export async function locateIdentityFile(executableRealPath: string, declared: ProviderIdentityFile): Promise<IdentityFileLocation> {
  for (let directory = dirname(executableRealPath); ; directory = dirname(directory)) {
    if (basename(directory) !== 'node_modules') {
      const packageRoot = join(directory, 'node_modules', declared.package);
      if (await isFile(join(packageRoot, 'package.json'))) return { kind: 'located', path: join(packageRoot, declared.file) };
    }
    if (dirname(directory) === directory) break;
  }
  return {
    kind: 'not-found',
    message: `the package ${declared.package} (holding the declared identity file ${declared.file}) is in no node_modules directory above ${executableRealPath}`,
  };
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}
