import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { chmod, copyFile, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// `statecraft qualify` launches the adapter under test many times, under the same evidence
// boundary as `run` (R12): the homes hidden (the operator's, /root, each one of /home), not only the
// product home. A hostile adapter tries, at every launch, to read a secret planted in each home —
// by its path, through /proc/self/root, through a link it makes in its workspace and through one
// planted beforehand outside every home — and writes what it read to a managed path in /tmp, the
// one place it may write that outlives the suite. Nothing of any secret may be read.

const scratch = scratchDirectories();
const nonce = randomBytes(6).toString('hex');
const planted: string[] = [];
const removals: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const path of planted.splice(0)) await rm(path, { force: true });
  for (const remove of removals.splice(0)) await remove();
});

interface QualifyDocument {
  passed: boolean;
  hidden?: { path: string; role: string }[];
  cases: { row: number; status: string; detail: string }[];
}

/** A directory of /home besides the operator's, where one exists (another user's home). */
function otherUsersHome(): string | undefined {
  try {
    return readdirSync('/home')
      .map((name) => join('/home', name))
      .find((path) => statSync(path).isDirectory());
  } catch {
    return undefined;
  }
}

/** Plants a secret file in `directory`, removed when the file is done; answers its path and content. */
async function plant(directory: string, name: string): Promise<{ path: string; secret: string }> {
  const path = join(directory, `.statecraft-qualify-secret-${name}-${nonce}`);
  const secret = `secret of ${name} ${nonce}`;
  planted.push(path);
  await writeFile(path, `${secret}\n`, { mode: 0o644 });
  return { path, secret };
}

/**
 * The hostile adapter: at every launch, reads each target four ways and appends what it saw to
 * `leak/seen.jsonl` (a managed path, bound writable), then ends as a well-behaved adapter would.
 */
async function homeReadingAdapter(targets: { name: string; path: string; link: string }[], leak: string): Promise<string> {
  const body = `
import { appendFileSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
const seen = {};
const attempt = (key, path) => {
  try { seen[key] = readFileSync(path, 'utf8'); } catch (error) { seen[key] = 'unreadable: ' + error.code; }
};
for (const target of ${JSON.stringify(targets)}) {
  attempt(target.name + ' by its path', target.path);
  attempt(target.name + ' through /proc/self/root', '/proc/self/root' + target.path);
  attempt(target.name + ' through a link planted outside every home', target.link);
  const made = join(process.cwd(), 'link-' + target.name + '-' + process.pid + '-' + Math.random().toString(36).slice(2));
  try { symlinkSync(target.path, made); attempt(target.name + ' through a link made in the workspace', made); } catch (error) { seen[target.name + ' link'] = 'not made: ' + error.code; }
}
try { appendFileSync(${JSON.stringify(join(leak, 'seen.jsonl'))}, JSON.stringify(seen) + '\\n'); } catch {}
init();
emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });
`;
  const adapter = await createScriptedAdapter('home-reader', body);
  removals.push(adapter.remove);
  const manifestFile = `${adapter.executable}.manifest.json`;
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Record<string, unknown>;
  await writeFile(manifestFile, JSON.stringify({ ...manifest, managedPaths: [leak] }));
  return adapter.executable;
}

/** A copy of the adapter and its manifest in `home`/tools/home-reader. */
async function installedIn(home: string, adapter: string): Promise<string> {
  const directory = join(home, 'tools', 'home-reader');
  await mkdir(directory, { recursive: true });
  const installed = join(directory, 'home-reader');
  await copyFile(adapter, installed);
  await chmod(installed, 0o755);
  await copyFile(`${adapter}.manifest.json`, `${installed}.manifest.json`);
  return installed;
}

describe('qualify hides the homes from every launch of the adapter under test, as run does (R12)', () => {
  it.each([
    ['an operator HOME of its own', 'own'],
    ['HOME=/root', 'root'],
    ['an adapter installed in the operator HOME, which still runs', 'installed'],
  ])('%s: no secret of any home is read, by path, /proc/self/root or a link', async (_, which) => {
    const productHome = await scratch.make('statecraft-qualify-homes-product-home');
    const operatorHome = which === 'root' ? '/root' : await scratch.make('statecraft-qualify-operator-home');
    const links = await scratch.make('statecraft-qualify-homes-links');
    const leak = join('/tmp', `statecraft-qualify-homes-leak-${process.pid}-${nonce}-${which}`);
    removals.push(() => rm(leak, { recursive: true, force: true }));
    const other = otherUsersHome();
    const secrets = [
      { name: 'operator', ...(await plant(operatorHome, `operator-${which}`)) },
      ...(which === 'root' ? [] : [{ name: 'root', ...(await plant('/root', `root-${which}`)) }]),
      ...(other === undefined ? [] : [{ name: 'other', ...(await plant(other, `other-${which}`)) }]),
    ];
    const targets = await Promise.all(
      secrets.map(async ({ name, path }) => {
        const link = join(links, `${name}-link`);
        await symlink(path, link);
        return { name, path, link };
      }),
    );
    // Outside the sandbox every secret is readable: what is measured inside is the boundary.
    for (const { path, secret } of secrets) expect(await readFile(path, 'utf8')).toContain(secret);
    const made = await homeReadingAdapter(targets, leak);
    // Installed in the hidden home, the adapter's own directory is bound back read-only, as for `run`; the home's secret beside it is not.
    const adapter = which === 'installed' ? await installedIn(operatorHome, made) : made;
    const qualified = await runStatecraft(['qualify', adapter, '--json'], { home: productHome, env: { HOME: operatorHome }, timeoutMs: 600_000 });
    const answer = parseJson<QualifyDocument>(qualified);
    expect([0, 1], qualified.stderr).toContain(qualified.exitCode);

    const seenFile = join(leak, 'seen.jsonl');
    expect(existsSync(seenFile), `no launch of the adapter wrote ${seenFile}: ${JSON.stringify(answer.cases)}`).toBe(true);
    const launches = (await readFile(seenFile, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string>);
    expect(launches.length).toBeGreaterThan(0);
    for (const seen of launches) {
      expect(Object.keys(seen)).toHaveLength(targets.length * 4);
      for (const [key, value] of Object.entries(seen)) {
        for (const { secret } of secrets) expect(value, key).not.toContain(secret);
        expect(value, key).toMatch(/^unreadable: /);
      }
    }
    // The --json answer says what the suite hid from every launch, as a run's posture does.
    const hidden = answer.hidden ?? [];
    expect(hidden).toContainEqual({ path: operatorHome, role: 'operator-home' });
    if (which !== 'root') expect(hidden).toContainEqual({ path: '/root', role: 'other-home' });
    if (other !== undefined) expect(hidden).toContainEqual({ path: other, role: 'other-home' });
    expect(hidden.some((entry) => entry.role === 'product-home')).toBe(true);
  });
});
