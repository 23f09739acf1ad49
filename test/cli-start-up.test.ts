import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scratchDirectories } from './fixtures/scratch-directories.js';
import { useTestTargets } from './fixtures/sample-repository.js';
import { parseJson, runStatecraft } from './fixtures/statecraft-cli.js';

const LOADED_MODULES_PRELOAD = fileURLToPath(new URL('./fixtures/report-loaded-modules.cjs', import.meta.url));
const targets = useTestTargets();
const scratch = scratchDirectories();

/** Runs `statecraft <args>` and answers its exit code and the Node built-ins the process loaded. */
async function builtinsLoadedBy(
  args: readonly string[],
): Promise<{ exitCode: number; stdout: string; builtins: string[]; args: readonly string[]; stderr: string }> {
  const report = join(await scratch.make('statecraft-loaded-modules-'), 'builtins.txt');
  const run = await runStatecraft(args, {
    home: targets.home.path,
    env: { NODE_OPTIONS: `--require ${LOADED_MODULES_PRELOAD}`, STATECRAFT_TEST_LOADED_MODULES_FILE: report },
  });
  const builtins = (await readFile(report, 'utf8')).split('\n').filter((name) => name !== '');
  return { ...run, builtins };
}

// Start-up is paid by every verb (issue 9: the benchmarks meet their targets): a provider package
// (its schemas, its model double's HTTP server, its suite driver) is evaluated only when its adapter
// is named. `node:http` is used by the model doubles alone, so its absence shows they never ran.
describe('a start of the CLI evaluates only what its verb needs', () => {
  it('`statecraft run` through the fixture adapter loads no provider package: no model double, so no node:http', async () => {
    const run = await builtinsLoadedBy(['run', targets.repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json']);
    expect(parseJson<{ outcome: string }>(run).outcome).toBe('completed');
    expect(run.exitCode).toBe(0);
    expect(run.builtins).toContain('child_process');
    expect(run.builtins).not.toContain('http');
  });

  it('`statecraft --help` loads no provider package either', async () => {
    const help = await builtinsLoadedBy(['--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('Usage: statecraft');
    expect(help.builtins).not.toContain('http');
  });
});
