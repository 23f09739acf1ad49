import { describe, expect, it } from 'vitest';
import { repositoryWithSuite } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R9.2, R9.3, R13.3: for a run with no spec, the suite its acceptance will run is the declaration's
// `acceptance.checks`, so command coverage compares those commands with the allowance, as it
// compares a spec's Verification commands.

interface Coverage {
  verdict: string;
  spec: unknown;
  checksFrom?: string;
  commands?: { text: string; program?: string }[];
  missing?: { program: string; commands: string[] }[];
}

const targets = useTestTargets({ sharedRepository: false });

async function runWithoutSpec(repository: string) {
  return runStatecraft(['run', repository, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], { home: targets.home.path });
}

describe("command coverage reads the declaration's acceptance checks for a run with no spec (R9.2, R13.3)", () => {
  it('refuses the run at planning, exit 2, naming a program a declared check needs that the allowance omits; nothing appended', async () => {
    // repositoryWithSuite declares grep, touch, true and false; the fixture adapter adds node.
    const repository = await repositoryWithSuite(targets, { checks: ['grep -q forty-two answer.txt', 'make test'] });
    const run = await runWithoutSpec(repository.path);
    expect(run.exitCode).toBe(2);
    const refused = parseJson<{ refused: { stage: string; reason: string; message: string; detail: { coverage: Coverage } } }>(run).refused;
    expect(refused).toMatchObject({ stage: 'plan', reason: 'coverage' });
    expect(refused.message).toContain('the acceptance checks of .statecraft/environment.json (the run has no spec) name make');
    expect(refused.detail.coverage).toMatchObject({
      verdict: 'refused',
      spec: 'none',
      checksFrom: 'declaration',
      missing: [{ program: 'make', commands: ['make test'] }],
    });
    const listed = await runStatecraft(['run', 'list', repository.path, '--json'], { home: targets.home.path });
    expect(parseJson<{ attempts: unknown[] }>(listed).attempts).toEqual([]);
  });

  it('records the comparison of the declared checks on the attempt when the allowance covers them: direct, read at the base commit (R9.4)', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['grep -q forty-two answer.txt', 'true'] });
    const run = await runWithoutSpec(repository.path);
    expect(run.exitCode).toBe(0);
    const coverage = parseJson<{ posture: { coverage: Coverage & { readFrom: { kind: string } } } }>(run).posture.coverage;
    expect(coverage).toMatchObject({ verdict: 'direct', spec: 'none', checksFrom: 'declaration', readFrom: { kind: 'commit' } });
    expect(coverage.commands?.map((command) => command.program)).toEqual(['grep', 'true']);
  });
});
