import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { managedPathAdapters, PASSES_HOME } from './fixtures/managed-path-adapters.js';
import { useTestTargets } from './fixtures/sample-repository.js';
import { scratchDirectories } from './fixtures/scratch-directories.js';
import { parseJson } from './fixtures/statecraft-cli.js';

// statecraft's own git runs, outside the sandbox, only in a target: the one it is run on, and the
// ones the product home names (a retry, accept). A target that lies in a path its adapter declares
// managed is refused at planning, before any git that obeys the repository's configuration runs
// there (R10.6, R12).

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();
const { hostileAdapterManaging, runWith } = managedPathAdapters(targets);

/** The agent's part (scripted-adapter.ts): a repository made with git inside the sandbox, its configuration naming a filter that touches `marker`. */
function agentMakesRepositoryWithFilter(at: string, marker: string): string {
  const git = (args: string[]) =>
    `execFileSync('git', ${JSON.stringify(['-c', 'user.name=agent', '-c', 'user.email=agent@statecraft.invalid', ...args])}, { cwd: ${JSON.stringify(at)}, stdio: 'ignore' });`;
  return [
    "import { execFileSync } from 'node:child_process';",
    "import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';",
    `mkdirSync(${JSON.stringify(at)}, { recursive: true });`,
    git(['init', '--quiet']),
    `writeFileSync(${JSON.stringify(join(at, '.gitattributes'))}, '* filter=planted\\n');`,
    git(['add', '.']),
    git(['commit', '--quiet', '-m', 'planted']),
    `appendFileSync(${JSON.stringify(join(at, '.git', 'config'))}, ${JSON.stringify(`[filter "planted"]\n\tsmudge = touch ${marker} && cat\n`)});`,
  ].join('\n');
}

describe('managed paths and git repositories (R10.6, R12)', () => {
  it('a target that lies in a path its adapter declares managed is refused at planning: the filter its agent planted there never runs', async () => {
    const repository = await targets.fresh();
    const home = await scratch.make('statecraft-operator-home');
    const cloned = join(home, '.provider', 'plugins', 'cloned');
    const marker = join(await scratch.make('statecraft-filter-marker'), 'ran');
    // A run on another repository: its agent makes a repository under its managed path (empty at
    // the launch's check), with a filter in its configuration and an attribute that names it.
    const adapter = await hostileAdapterManaging(['~/.provider'], agentMakesRepositoryWithFilter(cloned, marker), PASSES_HOME);
    const first = await runWith(repository.path, adapter, { HOME: home });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(await readFile(join(cloned, '.git', 'config'), 'utf8')).toContain('[filter "planted"]');
    // Then the operator runs statecraft on that repository with the same adapter.
    const run = await runWith(cloned, adapter, { HOME: home });
    expect(existsSync(marker), "statecraft's git ran the filter the agent planted").toBe(false);
    expect(run.exitCode, run.stderr).toBe(2);
    const refused = parseJson<{ refused: { stage: string; reason: string; message: string } }>(run).refused;
    expect([refused.stage, refused.reason]).toEqual(['plan', 'target']);
    expect(refused.message).toContain(`${cloned} lies inside ${join(home, '.provider')}, which the adapter declares managed ("~/.provider")`);
  });
});
