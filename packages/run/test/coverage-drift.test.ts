import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RecordedCoverageSchema } from '@statecraft/adapter';
import { checkCoverageAtLaunch, compareReadings, planCoverageAt, type PlannedCoverage } from '@statecraft/run';
import { createRepository, declarationText, specText, type TestRepository } from './coverage-repository.js';

// R9.4: compared at planning from the working tree, again at launch from the base commit; a digest
// that differs refuses the launch naming the input. Real repositories, real git.

let repo: TestRepository;
beforeEach(async () => {
  repo = await createRepository();
});
afterEach(async () => {
  await repo.cleanup();
});

async function planFromWorkingTree(spec: string | undefined, adapterCommands: readonly string[] = []): Promise<PlannedCoverage> {
  const plan = await planCoverageAt({ repository: repo.path, spec, source: { kind: 'working-tree' }, adapterCommands });
  if (plan.kind !== 'planned') throw new Error(`expected a plan: ${plan.message}`);
  return plan;
}

async function launch(plan: PlannedCoverage, baseCommit: string, options: { spec?: string | undefined; adapterCommands?: readonly string[] } = {}) {
  const spec = 'spec' in options ? options.spec : '004';
  return checkCoverageAtLaunch({ repository: repo.path, spec, baseCommit, adapterCommands: options.adapterCommands ?? [], plan });
}

describe('launch against the base commit (R9.4)', () => {
  it('records the launch reading when nothing drifted', async () => {
    await repo.write('specs/004.md', specText(['cargo test']));
    await repo.write('.statecraft/environment.json', declarationText(['cargo']));
    const base = await repo.commit('declare cargo');
    const plan = await planFromWorkingTree('004');
    const answer = await launch(plan, base);
    expect(answer).toMatchObject({ kind: 'ready', coverage: { verdict: 'direct', readFrom: { kind: 'commit', commit: base } } });
    if (answer.kind !== 'ready') throw new Error('expected ready');
    expect(RecordedCoverageSchema.parse(JSON.parse(JSON.stringify(answer.coverage)))).toEqual(answer.coverage);
  });

  it('refuses an allowance declared in the working tree but absent at the base, naming the allowance', async () => {
    await repo.write('specs/004.md', specText(['cargo test']));
    const base = await repo.commit('spec only');
    await repo.write('.statecraft/environment.json', declarationText(['cargo']));
    const plan = await planFromWorkingTree('004');
    expect(plan.coverage.verdict).toBe('direct');
    const answer = await launch(plan, base);
    expect(answer).toMatchObject({ kind: 'drifted', inputs: ['allowance'] });
    expect(answer).toMatchObject({ message: expect.stringContaining('allowance (sha256:') as unknown });
    expect(answer).toMatchObject({ message: expect.stringContaining('absent at the base commit') as unknown });
  });

  it('refuses an uncommitted edit to the Verification block, naming the suite plan', async () => {
    await repo.write('specs/004.md', specText(['make']));
    const base = await repo.commit('make');
    await repo.write('specs/004.md', specText(['make', 'make lint']));
    const plan = await planFromWorkingTree('004', ['make']);
    expect(await launch(plan, base, { adapterCommands: ['make'] })).toMatchObject({ kind: 'drifted', inputs: ['suite plan'] });
  });

  it('does not refuse an uncommitted edit elsewhere in the spec', async () => {
    await repo.write('specs/004.md', specText(['make'], 'First wording.'));
    const base = await repo.commit('make');
    await repo.write('specs/004.md', specText(['# a new comment', 'make'], 'Second, longer wording.\n\nWith a paragraph.'));
    const plan = await planFromWorkingTree('004', ['make']);
    const answer = await launch(plan, base, { adapterCommands: ['make'] });
    expect(answer).toMatchObject({ kind: 'ready', coverage: { verdict: 'direct' } });
  });

  it('names both inputs when both drifted', async () => {
    await repo.write('specs/004.md', specText(['make']));
    const base = await repo.commit('make');
    await repo.write('specs/004.md', specText(['cargo test']));
    await repo.write('.statecraft/environment.json', declarationText(['cargo']));
    const plan = await planFromWorkingTree('004', ['make']);
    expect(await launch(plan, base, { adapterCommands: ['make'] })).toMatchObject({ kind: 'drifted', inputs: ['allowance', 'suite plan'] });
  });

  it('reads a spec that exists only in the working tree as a drifted suite plan', async () => {
    const base = await repo.commit('nothing yet');
    await repo.write('specs/004.md', specText(['make']));
    const plan = await planFromWorkingTree('004', ['make']);
    const answer = await launch(plan, base, { adapterCommands: ['make'] });
    expect(answer).toMatchObject({ kind: 'drifted', inputs: ['suite plan'] });
    expect(answer).toMatchObject({ message: expect.stringContaining('specs/004/spec.md nor specs/004.md') as unknown });
  });

  it('reads a declaration malformed only at the base as a drifted allowance', async () => {
    await repo.write('specs/004.md', specText(['cargo test']));
    await repo.write('.statecraft/environment.json', declarationText(['bin/cargo']));
    const base = await repo.commit('a path, by mistake');
    await repo.write('.statecraft/environment.json', declarationText(['cargo']));
    const plan = await planFromWorkingTree('004');
    const answer = await launch(plan, base);
    expect(answer).toMatchObject({ kind: 'drifted', inputs: ['allowance'] });
    expect(answer).toMatchObject({ message: expect.stringContaining('"bin/cargo" contains "/"') as unknown });
  });

  it('checks the allowance of a run without a spec too, and records not-applicable', async () => {
    await repo.write('.statecraft/environment.json', declarationText(['cargo']));
    const base = await repo.commit('declared');
    const plan = await planFromWorkingTree(undefined);
    expect(await launch(plan, base, { spec: undefined })).toMatchObject({ kind: 'ready', coverage: { verdict: 'not-applicable', spec: 'none' } });
    await repo.write('.statecraft/environment.json', declarationText(['cargo', 'make']));
    const edited = await planFromWorkingTree(undefined);
    expect(await launch(edited, base, { spec: undefined })).toMatchObject({ kind: 'drifted', inputs: ['allowance'] });
  });
});

describe('comparing two readings (R9.4)', () => {
  it('is the same when both digests match, and names each that differs', () => {
    const digests = { allowance: 'absent', suitePlan: 'none' };
    expect(compareReadings({ digests }, { digests: { ...digests } })).toEqual({ kind: 'same' });
    expect(compareReadings({ digests }, { digests: { ...digests, suitePlan: 'sha256:x' } })).toMatchObject({ kind: 'drifted', inputs: ['suite plan'] });
  });
});
