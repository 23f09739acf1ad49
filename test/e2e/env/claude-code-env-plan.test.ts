import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeCodeAdapterPath } from '@statecraft/adapter-claude-code';
import { createProductHome, createSampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

/** Every temporary directory this file makes, removed when it is done. */
const scratch = scratchDirectories();

// R10.6 through the built CLI: `statecraft env plan` shows the Claude Code adapter's managed paths
// and prerequisites, names the absent one, claims nothing and writes nothing; two adapters
// declaring the same managed path are refused naming both and the path.

interface PlanJson {
  verdict: 'claimed' | 'not-claimed' | 'refused';
  message: string;
  wrote: string;
  adapters: Array<{
    name: string;
    managedPaths: string[];
    prerequisites: Array<{ prerequisite: { kind: string }; state: string; detail: string }>;
    claim: { kind: string };
  }>;
  collisions: Array<{ paths: string[]; adapters: string[] }>;
}

/** A PATH with node and the system tools, and no `claude`. */
const PATH_WITHOUT_CLAUDE = `${dirname(process.execPath)}:/usr/bin:/bin`;

describe('statecraft env plan with the Claude Code adapter', () => {
  it('names the absent claude when it is not on the constructed PATH, claims nothing and writes nothing (R10.6, R5.4)', async () => {
    const repository = await createSampleRepository();
    scratch.keep(repository);
    const home = await createProductHome();
    scratch.keep(home);
    const operatorHome = await scratch.make('statecraft-cc-operator-home');
    const answer = await runStatecraft(['env', 'plan', repository.path, '--adapter', claudeCodeAdapterPath(), '--json'], {
      home: home.path,
      env: { PATH: PATH_WITHOUT_CLAUDE, HOME: operatorHome },
    });
    expect(answer.exitCode).toBe(1);
    const plan = parseJson<PlanJson>(answer);
    expect(plan.verdict).toBe('not-claimed');
    const adapter = plan.adapters[0];
    // No managed path: claude's state lives in each attempt's private CLAUDE_CONFIG_DIR.
    expect(adapter?.managedPaths).toEqual([]);
    const command = adapter?.prerequisites.find((check) => check.prerequisite.kind === 'command');
    expect(command?.state).toBe('absent');
    expect(plan.message).toContain('claude is not on the constructed PATH');
    expect(plan.message).toContain('no qualification record');
    expect(adapter?.claim.kind).toBe('not-claimed');
    expect(await readdir(home.path)).toEqual([]);
    expect(await readdir(operatorHome)).toEqual([]);
    expect(await repository.git('status', '--porcelain')).toBe('');
  });

  it('renders the same plan for a person: the absent prerequisite named, and that nothing was written (R11)', async () => {
    const repository = await createSampleRepository();
    scratch.keep(repository);
    const home = await createProductHome();
    scratch.keep(home);
    const answer = await runStatecraft(['env', 'plan', repository.path, '--adapter', claudeCodeAdapterPath()], {
      home: home.path,
      env: { PATH: PATH_WITHOUT_CLAUDE },
    });
    expect(answer.exitCode).toBe(1);
    expect(answer.stdout).toContain('managed paths  none declared');
    expect(answer.stdout).toMatch(/ABSENT\s+claude is not on the constructed PATH/);
    expect(answer.stdout).toContain('wrote nothing');
  });

  it('refuses two adapters declaring the same managed path, naming both and the path (R10.6)', async () => {
    const repository = await createSampleRepository();
    scratch.keep(repository);
    const home = await createProductHome();
    scratch.keep(home);
    // Two copies of the same bundle under other names, each declaring the same ~/.claude managed.
    const siblingDirectory = await scratch.make('statecraft-cc-sibling');
    const manifest = JSON.parse(await readFile(`${claudeCodeAdapterPath()}.manifest.json`, 'utf8')) as Record<string, unknown>;
    const copies: string[] = [];
    for (const name of ['claude-code', 'claude-code-sibling']) {
      const copy = join(siblingDirectory, `statecraft-adapter-${name}.cjs`);
      await copyFile(claudeCodeAdapterPath(), copy);
      await writeFile(`${copy}.manifest.json`, JSON.stringify({ ...manifest, name, managedPaths: ['~/.claude'] }));
      copies.push(copy);
    }
    const answer = await runStatecraft(['env', 'plan', repository.path, ...copies.flatMap((copy) => ['--adapter', copy]), '--json'], {
      home: home.path,
      env: { PATH: PATH_WITHOUT_CLAUDE },
    });
    expect(answer.exitCode).toBe(2);
    const plan = parseJson<PlanJson>(answer);
    expect(plan.verdict).toBe('refused');
    expect(plan.collisions).toEqual([{ paths: ['~/.claude', '~/.claude'], adapters: ['claude-code', 'claude-code-sibling'] }]);
    expect(plan.message).toContain('adapters claude-code and claude-code-sibling both declare the managed path ~/.claude');
    expect(await readdir(home.path)).toEqual([]);
  });
});
