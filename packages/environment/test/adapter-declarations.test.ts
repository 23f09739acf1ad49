import { chmod, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPrerequisite, expandHome, findManagedPathCollisions, planAdapterPaths } from '@statecraft/environment';
import type { AdapterDeclaration, PrerequisiteContext } from '@statecraft/environment';
import { scratchDirectories } from '../../../test/fixtures/scratch-directories.js';

// R10.6: an adapter declares its managed paths and prerequisites; absent any prerequisite it
// claims nothing and names which; two adapters declaring the same path are refused at plan time.

const scratch = scratchDirectories();

const claudeLike: AdapterDeclaration = {
  name: 'claude-code',
  version: '0.1.0',
  managedPaths: ['~/.claude'],
  prerequisites: [
    { kind: 'command', command: 'claude' },
    { kind: 'qualification' },
    { kind: 'credential', anyOf: [{ env: 'ANTHROPIC_API_KEY' }, { file: '~/.claude/.credentials.json' }] },
  ],
};

/** A scratch machine: a bin directory (optionally holding an executable `claude`) and a HOME. */
async function machine(options: { claude: boolean; credentialsFile: boolean }): Promise<{ root: string; bin: string; home: string }> {
  const root = await scratch.make('statecraft-declarations');
  const bin = join(root, 'bin');
  const home = join(root, 'home');
  await mkdir(bin);
  await mkdir(join(home, '.claude'), { recursive: true });
  if (options.claude) {
    await writeFile(join(bin, 'claude'), '#!/bin/sh\nexit 0\n');
    await chmod(join(bin, 'claude'), 0o755);
  }
  if (options.credentialsFile) await writeFile(join(home, '.claude', '.credentials.json'), '{}');
  return { root, bin, home };
}

const qualified: PrerequisiteContext['qualification'] = { kind: 'qualified' };

describe('adapter declarations', () => {
  it('claims the managed paths when the command resolves on the constructed PATH, a record qualifies the pair and a credential is present (R10.6)', async () => {
    const { bin, home } = await machine({ claude: true, credentialsFile: true });
    const plan = planAdapterPaths([{ declaration: claudeLike, context: { environment: { PATH: bin, HOME: home }, qualification: qualified } }]);
    expect(plan.kind).toBe('planned');
    if (plan.kind !== 'planned') return;
    expect(plan.adapters[0]?.claim).toEqual({ kind: 'claimed', paths: ['~/.claude'] });
    expect(plan.adapters[0]?.prerequisites.map((check) => check.state)).toEqual(['present', 'present', 'present']);
  });

  it('claims nothing and names the absent command when claude is not on the constructed PATH, whatever the supervisor PATH holds (R10.6, R5.1)', async () => {
    const { bin, home } = await machine({ claude: false, credentialsFile: true });
    const plan = planAdapterPaths([{ declaration: claudeLike, context: { environment: { PATH: bin, HOME: home }, qualification: qualified } }]);
    if (plan.kind !== 'planned') throw new Error('expected a plan');
    const claim = plan.adapters[0]?.claim;
    expect(claim?.kind).toBe('not-claimed');
    if (claim?.kind !== 'not-claimed') return;
    expect(claim.absent.map((check) => check.prerequisite)).toEqual([{ kind: 'command', command: 'claude' }]);
    expect(claim.message).toContain('claude is not on the constructed PATH');
    expect(claim.message).toContain('~/.claude');
  });

  it('claims nothing and names the missing qualification record for an unqualified pair (R10.6, R3.2)', async () => {
    const { bin, home } = await machine({ claude: true, credentialsFile: true });
    const plan = planAdapterPaths([
      {
        declaration: claudeLike,
        context: { environment: { PATH: bin, HOME: home }, qualification: { kind: 'unqualified', reason: 'no record for this provider digest' } },
      },
    ]);
    if (plan.kind !== 'planned') throw new Error('expected a plan');
    const claim = plan.adapters[0]?.claim;
    expect(claim?.kind === 'not-claimed' ? claim.message : '').toContain('no qualification record binds this adapter: no record for this provider digest');
  });

  it('finds the credential path in either form: the key in the environment, or the credentials file under the constructed HOME (R5.4)', async () => {
    const withFile = await machine({ claude: true, credentialsFile: true });
    const withoutFile = await machine({ claude: true, credentialsFile: false });
    const credential = claudeLike.prerequisites?.[2];
    if (credential === undefined) throw new Error('no credential prerequisite');
    const state = (environment: Record<string, string>) => checkPrerequisite(credential, { environment, qualification: qualified }).state;
    expect(state({ HOME: withFile.home })).toBe('present');
    expect(state({ HOME: withoutFile.home })).toBe('absent');
    expect(state({ HOME: withoutFile.home, ANTHROPIC_API_KEY: 'sk-test' })).toBe('present');
    expect(state({})).toBe('absent');
    expect(expandHome('~/.claude', {})).toBeUndefined();
  });

  it('refuses two adapters declaring the same managed path at plan time, naming both and the path (R10.6)', async () => {
    const { bin, home } = await machine({ claude: true, credentialsFile: true });
    const context = { environment: { PATH: bin, HOME: home }, qualification: qualified };
    const sibling: AdapterDeclaration = { name: 'claude-code-sibling', version: '1.0.0', managedPaths: ['~/.claude/'] };
    const plan = planAdapterPaths([
      { declaration: claudeLike, context },
      { declaration: sibling, context },
    ]);
    expect(plan.kind).toBe('refused');
    if (plan.kind !== 'refused') return;
    expect(plan.message).toContain('claude-code');
    expect(plan.message).toContain('claude-code-sibling');
    expect(plan.message).toContain('~/.claude');
    expect(plan.collisions).toEqual([{ paths: ['~/.claude', '~/.claude/'], adapters: ['claude-code', 'claude-code-sibling'] }]);
  });

  it("counts a path inside another adapter's managed path as a collision, and distinct paths as none (R10.6)", () => {
    const inner: AdapterDeclaration = { name: 'inner', version: '1.0.0', managedPaths: ['~/.claude/projects'] };
    const elsewhere: AdapterDeclaration = { name: 'elsewhere', version: '1.0.0', managedPaths: ['~/.claudette'] };
    expect(findManagedPathCollisions([claudeLike, inner]).map((collision) => collision.adapters)).toEqual([['claude-code', 'inner']]);
    expect(findManagedPathCollisions([claudeLike, elsewhere])).toEqual([]);
  });

  it('writes nothing while planning, claimed or not (R10.6)', async () => {
    const { root, bin, home } = await machine({ claude: false, credentialsFile: false });
    const before = await readdir(root, { recursive: true });
    planAdapterPaths([{ declaration: claudeLike, context: { environment: { PATH: bin, HOME: join(home, 'absent') }, qualification: qualified } }]);
    expect(await readdir(root, { recursive: true })).toEqual(before);
  });
});
