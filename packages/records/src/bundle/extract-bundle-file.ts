import { copyFileSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { readKeptFile } from '../read/read-kept-file.js';
import type { BundleFile } from './bundle-manifest.js';

/**
 * Copies one file a bundle's manifest lists out of the bundle (a tar or a directory) into
 * `directory`, and digests the copy: the bytes handed on are the manifest's, whatever changed in
 * the bundle since it was verified. A string says why not.
 */
export async function extractBundleFile(bundle: string, file: BundleFile, directory: string): Promise<string | { path: string }> {
  const to = join(directory, 'extracted');
  if (lstatSync(bundle).isDirectory()) copyFileSync(join(bundle, file.path), to);
  else {
    const { list } = await import('tar');
    const { createWriteStream } = await import('node:fs');
    let found = false;
    const out = createWriteStream(to);
    await list({
      file: bundle,
      onReadEntry: (entry) => {
        if (found || entry.path.replace(/^\.\//, '') !== file.path || entry.type !== 'File') return entry.resume();
        found = true;
        entry.pipe(out);
      },
    });
    await new Promise<void>((resolve, reject) => {
      if (!found) out.end();
      out.on('finish', resolve).on('error', reject);
      if (out.writableFinished) resolve();
    });
    if (!found) return `${file.path} is not in ${bundle}`;
  }
  const copy = readKeptFile(to);
  if (copy.kind === 'unreadable') return `${file.path} cannot be read from ${bundle}: ${copy.why}`;
  if (copy.sha256 !== file.sha256 || copy.bytes !== file.bytes)
    return `${file.path} in ${bundle} is not the file its manifest names: it changed after it was verified`;
  return { path: to };
}
