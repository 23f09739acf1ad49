import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// The boundary hides the operator's home; an adapter installed in a project inside that home (the
// common case: `npm install` in ~/project) must still run. What holds the programs a launch runs is
// bound read-only first (role `program`): the project that holds a node_modules, else the program's
// directory. The rest of the home stays hidden, which the probe's home check shows. Without the
// holder bound, the adapter could not be started inside the sandbox: interrupted, no result.

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();
const FIXTURE = fileURLToPath(new URL('../../../packages/adapter/fixture/statecraft-fixture-adapter', import.meta.url));

interface Posture {
  outcome: string;
  posture: { boundary: { profile: { readOnly: { path: string; role: string }[] }; probe: { check: string; held: boolean }[] } };
}

/** An operator home holding a project with node_modules, the fixture adapter installed under it, and a secret beside it. */
async function homeWithProject(layout: 'project' | 'bare'): Promise<{ home: string; holder: string; adapter: string }> {
  const home = await scratch.make('statecraft-program-home-');
  await writeFile(join(home, '.netrc'), 'machine example.invalid password secret\n');
  const project = join(home, 'work', 'project');
  const directory = layout === 'project' ? join(project, 'node_modules', 'some-adapter', 'bin') : join(home, 'adapters', 'fixture');
  await mkdir(directory, { recursive: true });
  const adapter = join(directory, 'statecraft-fixture-adapter');
  await copyFile(FIXTURE, adapter);
  await copyFile(`${FIXTURE}.manifest.json`, `${adapter}.manifest.json`);
  return { home, holder: layout === 'project' ? project : directory, adapter };
}

describe('an adapter installed inside the hidden home still runs', () => {
  for (const layout of ['project', 'bare'] as const) {
    it(`${layout === 'project' ? 'in a project holding node_modules' : 'in a directory of its own'}: it completes, its holder alone is shown read-only, the home stays hidden`, async () => {
      const repository = await targets.fresh();
      const { home, holder, adapter } = await homeWithProject(layout);
      const run = await runStatecraft(['run', repository.path, '--adapter', adapter, '--prompt', 'scenario: complete', '--json'], {
        home: targets.home.path,
        env: { HOME: home },
      });
      expect(run.exitCode, run.stderr).toBe(0);
      const answer = parseJson<Posture>(run);
      expect(answer.outcome).toBe('completed');
      const programs = answer.posture.boundary.profile.readOnly.filter((entry) => entry.role === 'program').map((entry) => entry.path);
      expect(programs).toEqual([holder]);
      const probe = answer.posture.boundary.probe;
      expect(probe.find((check) => check.check === 'home-hidden')?.held).toBe(true);
      expect(probe.every((check) => check.held)).toBe(true);
    });
  }
});
