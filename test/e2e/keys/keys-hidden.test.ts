import { readFileSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// The signing key `keys generate` makes lives under the product home, which the evidence boundary
// hides from every launch: an adapter that tries to read the private key by its path, through
// /proc/self/root, through a link planted beforehand outside the home and through one it makes in
// its workspace reads nothing of it. The same adapter under --boundary none reads it by its path,
// which shows each assertion can fail.

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();

/** An adapter that tries each way to the key and writes what it got into its workspace. */
async function keyReadingAdapter(key: string, plantedLink: string): Promise<string> {
  const body = `
const fs = require('node:fs');
const path = require('node:path');
const seen = {};
const attempt = (way, file) => {
  try { seen[way] = fs.readFileSync(file, 'utf8'); } catch (error) { seen[way] = 'unreadable: ' + error.code; }
};
attempt('by its path', ${JSON.stringify(key)});
attempt('through /proc/self/root', '/proc/self/root' + ${JSON.stringify(key)});
attempt('through a link planted outside the home', ${JSON.stringify(plantedLink)});
try {
  fs.symlinkSync(${JSON.stringify(key)}, path.join(process.cwd(), 'key-link'));
  attempt('through a link made in the workspace', path.join(process.cwd(), 'key-link'));
} catch (error) { seen['through a link made in the workspace'] = 'not made: ' + error.code; }
fs.writeFileSync('key-report.json', JSON.stringify(seen));
init();
emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });
`;
  const adapter = await createScriptedAdapter('key-reader', body);
  scratch.keep(adapter);
  return adapter.executable;
}

describe('the signing key is out of reach of every adapter', () => {
  it.each([
    ['bwrap', 'unreadable'],
    ['none', 'readable by its path'],
  ] as const)('under --boundary %s the private key is %s', async (boundary, _expected) => {
    const home = targets.home.path;
    const made = await runStatecraft(['keys', 'generate', '--replace', '--json'], { home });
    expect(made.exitCode, made.stderr).toBe(0);
    const { privateKeyPath } = parseJson<{ privateKeyPath: string }>(made);
    const secret = readFileSync(privateKeyPath, 'utf8');
    expect(secret).toContain('PRIVATE KEY');
    const links = await scratch.make('statecraft-key-links');
    const plantedLink = join(links, 'signing-key-link');
    await symlink(privateKeyPath, plantedLink);
    const adapter = await keyReadingAdapter(privateKeyPath, plantedLink);
    const repository = await targets.fresh();
    const ran = await runStatecraft(['run', repository.path, '--adapter', adapter, '--prompt', 'read the key', '--boundary', boundary, '--json'], { home });
    expect(ran.exitCode, ran.stderr).toBe(0);
    const { workspace } = parseJson<{ workspace: string }>(ran);
    const seen = JSON.parse(readFileSync(join(workspace, 'key-report.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(seen)).toHaveLength(4);
    if (boundary === 'bwrap') {
      for (const [way, got] of Object.entries(seen)) {
        expect(got, way).not.toContain('PRIVATE KEY');
        expect(got, way).toMatch(/^(unreadable|not made): /);
      }
    } else {
      expect(seen['by its path']).toBe(secret);
    }
  });
});
