import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageRootOf } from '@statecraft/adapter';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

const scratch = scratchDirectories();

/**
 * packageRootOf looks a package up in the ancestors' node_modules itself (Node's resolver, cold, is
 * slow on every start) and must give exactly Node's answer, links resolved; where it finds
 * nothing, Node's resolver answers, and refuses what Node refuses.
 */
describe('packageRootOf', () => {
  it("gives Node's own answer for each package statecraft finds its files in", () => {
    const from = import.meta.url;
    for (const name of ['@statecraft/adapter', '@statecraft/adapter-claude-code', '@statecraft/adapter-codex']) {
      expect(packageRootOf(name, from)).toBe(dirname(createRequire(from).resolve(`${name}/package.json`)));
    }
  });

  it('follows a linked package to its real directory, from a module nested below the node_modules that holds it', async () => {
    // A package made here, not one this repository depends on: its name is put together, not written as an import.
    const linked = ['@example', 'linked'].join('/');
    const root = await scratch.make('statecraft-package-root-');
    const real = join(root, 'real-package');
    await mkdir(real);
    await writeFile(join(real, 'package.json'), JSON.stringify({ name: linked, version: '1.0.0' }));
    await mkdir(join(root, 'app', 'node_modules', '@example'), { recursive: true });
    await symlink(real, join(root, 'app', 'node_modules', '@example', 'linked'));
    await mkdir(join(root, 'app', 'dist', 'bundle'), { recursive: true });
    const module = pathToFileURL(join(root, 'app', 'dist', 'bundle', 'main.cjs')).href;
    expect(packageRootOf(linked, module)).toBe(real);
    expect(packageRootOf(linked, module)).toBe(dirname(createRequire(module).resolve(`${linked}/package.json`)));
  });

  it("refuses a package no node_modules holds, as Node's resolver does", () => {
    expect(() => packageRootOf('@statecraft/no-such-package', import.meta.url)).toThrow(/Cannot find module/);
  });
});
