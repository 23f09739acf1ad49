// Writes generated files, or with `--check` in argv exits 1 naming each committed file that is
// stale: the one write-or-check step of every generator (the protocol's and the CLI's JSON Schema).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** `documents`: `{ file, text }` each; `regenerate`: the command that brings a stale file up to date. */
export async function writeOrCheckGenerated(documents, regenerate) {
  const check = process.argv.includes('--check');
  const stale = [];
  for (const { file, text } of documents) {
    if (check) {
      const current = await readFile(file, 'utf8').catch(() => '');
      if (current !== text) stale.push(file);
    } else {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, text);
    }
  }
  if (stale.length > 0) {
    process.stderr.write(`stale JSON Schema: ${stale.join(', ')}\nregenerate with: ${regenerate}\n`);
    process.exit(1);
  }
}
