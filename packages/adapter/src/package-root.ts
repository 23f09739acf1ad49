import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, parse } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The root directory of an installed package, found by its name from a module's location (a
 * package finds its own files this way: bundled into the CLI, `import.meta.url` is the bundle's).
 * First as Node looks a bare name up in `node_modules` directories — each ancestor's
 * `node_modules/<name>/package.json`, links resolved — with a few `stat`s: Node's own resolver,
 * asked cold at every start, loads and compiles parts of its module loader on first use. Where that finds nothing (a self-reference from inside the
 * package, NODE_PATH, another layout) Node's resolver answers, so the answer is always Node's.
 */
export function packageRootOf(name: string, from: string): string {
  let directory = dirname(from.startsWith('file:') ? fileURLToPath(from) : from);
  const top = parse(directory).root;
  for (;;) {
    const manifest = join(directory, 'node_modules', ...name.split('/'), 'package.json');
    if (existsSync(manifest)) return dirname(realpathSync(manifest));
    if (directory === top) break;
    directory = dirname(directory);
  }
  return dirname(createRequire(from).resolve(`${name}/package.json`));
}
