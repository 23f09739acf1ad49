import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
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
// which shows each assertion can fail. A key STATECRAFT_SIGNING_KEY names outside every hidden
// home would be in the adapter's reach: run, accept and qualify refuse it inside the boundary
// (exit 2, naming it); one kept under the operator's home is hidden like the product home.

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

  it('a STATECRAFT_SIGNING_KEY outside every hidden home is refused inside the boundary (exit 2); under the home it is hidden', async () => {
    const home = targets.home.path;
    const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    const outside = join(await scratch.make('statecraft-key-outside'), 'operator.pem');
    await writeFile(outside, pem, { mode: 0o600 });
    const repository = await targets.fresh();
    const env = { STATECRAFT_SIGNING_KEY: outside };
    // Without the boundary nothing is hidden, by the operator's choice: the run goes ahead.
    const unbounded = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--boundary', 'none'], {
      home,
      env,
    });
    expect(unbounded.exitCode, unbounded.stderr).toBe(0);
    for (const args of [
      ['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete'],
      ['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--accept'],
      ['accept', repository.path, 'latest'],
      ['qualify', '--fixture'],
    ]) {
      const refused = await runStatecraft(args, { home, env });
      expect(refused.exitCode, `${args.join(' ')}: ${refused.stderr}`).toBe(2);
      expect(refused.stderr).toContain(outside);
      expect(refused.stderr).toContain('in no hidden home');
    }

    // Kept under the operator's home, the key is hidden from the adapter like the product home.
    const operatorHome = await scratch.make('statecraft-key-operator-home');
    await mkdir(join(operatorHome, '.keys'));
    const inside = join(operatorHome, '.keys', 'operator.pem');
    await writeFile(inside, pem, { mode: 0o600 });
    const links = await scratch.make('statecraft-key-links');
    await symlink(inside, join(links, 'operator-key-link'));
    const adapter = await keyReadingAdapter(inside, join(links, 'operator-key-link'));
    const ran = await runStatecraft(['run', repository.path, '--adapter', adapter, '--prompt', 'read the key', '--json'], {
      home,
      env: { STATECRAFT_SIGNING_KEY: inside, HOME: operatorHome },
    });
    expect(ran.exitCode, ran.stderr).toBe(0);
    const seen = JSON.parse(readFileSync(join(parseJson<{ workspace: string }>(ran).workspace, 'key-report.json'), 'utf8')) as Record<string, string>;
    for (const [way, got] of Object.entries(seen)) expect(got, way).toMatch(/^(unreadable|not made): /);
  });
});
