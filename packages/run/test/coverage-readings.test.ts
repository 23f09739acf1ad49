import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COVERAGE_LIMITS, RecordedCoverageSchema } from '@statecraft/adapter';
import { planCoverageAt, readCoverageInputs } from '@statecraft/run';
import { createRepository, declarationText, specText, type TestRepository } from './coverage-repository.js';

// R9.1-R9.4 through real git repositories: one reading, from the working tree or from a commit.

let repo: TestRepository;
beforeEach(async () => {
  repo = await createRepository();
});
afterEach(async () => {
  await repo.cleanup();
});

const WORKING_TREE = { kind: 'working-tree' } as const;

describe('reading the spec (R9.2)', () => {
  it('looks for specs/<id>/spec.md first, then specs/<id>.md', async () => {
    await repo.write('specs/flat.md', specText(['make']));
    await repo.write('specs/both/spec.md', specText(['make']));
    await repo.write('specs/both.md', specText(['cargo']));
    const flat = await readCoverageInputs({ repository: repo.path, spec: 'flat', source: WORKING_TREE });
    const both = await readCoverageInputs({ repository: repo.path, spec: 'both', source: WORKING_TREE });
    expect(flat).toMatchObject({ kind: 'read', spec: { id: 'flat', path: 'specs/flat.md' } });
    expect(both).toMatchObject({ kind: 'read', spec: { id: 'both', path: 'specs/both/spec.md' } });
  });

  it('refuses a spec that is in neither place, naming both paths', async () => {
    const reading = await readCoverageInputs({ repository: repo.path, spec: '004', source: WORKING_TREE });
    expect(reading).toMatchObject({ kind: 'refused', input: 'suite plan', reason: 'spec-missing' });
    expect(reading).toMatchObject({ message: expect.stringContaining('specs/004/spec.md nor specs/004.md') as unknown });
  });

  it('refuses a spec id that could leave specs/', async () => {
    for (const id of ['../secret', 'a/../../b', '.hidden', 'a b', '']) {
      const reading = await readCoverageInputs({ repository: repo.path, spec: id, source: WORKING_TREE });
      expect(reading, id).toMatchObject({ kind: 'refused', reason: 'invalid-spec-id' });
    }
  });

  it('does not follow a spec that is a symbolic link', async () => {
    await repo.write('elsewhere.md', specText(['make']));
    await symlink(join(repo.path, 'elsewhere.md'), join(repo.path, 'specs.md'));
    await repo.write('specs/.keep', '');
    await symlink(join(repo.path, 'elsewhere.md'), join(repo.path, 'specs', '004.md'));
    const commit = await repo.commit('a linked spec');
    for (const source of [WORKING_TREE, { kind: 'commit', commit } as const]) {
      const reading = await readCoverageInputs({ repository: repo.path, spec: '004', source });
      expect(reading, source.kind).toMatchObject({ kind: 'refused', reason: 'spec-not-a-file' });
    }
  });

  it('refuses a spec without a Verification section, naming the file', async () => {
    await repo.write('specs/004.md', '# Spec\n\nNo checks.\n');
    const plan = await planCoverageAt({ repository: repo.path, spec: '004', source: WORKING_TREE, adapterCommands: [] });
    expect(plan).toMatchObject({ kind: 'refused', input: 'suite plan', reason: 'no-verification-section' });
    expect(plan).toMatchObject({ message: expect.stringMatching(/^specs\/004\.md: /) as unknown });
  });
});

describe('planning from the working tree (R9.1, R9.3)', () => {
  it('refuses cargo with no declaration, naming cargo and the command, with both limits', async () => {
    await repo.write('specs/004.md', specText(['cargo test', 'cargo build --release']));
    const plan = await planCoverageAt({ repository: repo.path, spec: '004', source: WORKING_TREE, adapterCommands: ['git'] });
    expect(plan).toMatchObject({
      kind: 'refused',
      reason: 'missing-programs',
      coverage: { verdict: 'refused', missing: [{ program: 'cargo', commands: ['cargo test', 'cargo build --release'] }] },
    });
    if (plan.kind !== 'refused') throw new Error('expected a refusal');
    expect(plan.message).toContain('name cargo, which the allowance omits');
    expect(plan.message).toContain(COVERAGE_LIMITS[0]);
    expect(plan.message).toContain(COVERAGE_LIMITS[1]);
  });

  it('reads cargo as direct once "project.commands" declares it', async () => {
    await repo.write('specs/004.md', specText(['cargo test']));
    await repo.write('.statecraft/environment.json', declarationText(['cargo']));
    const plan = await planCoverageAt({ repository: repo.path, spec: '004', source: WORKING_TREE, adapterCommands: [] });
    expect(plan).toMatchObject({
      kind: 'planned',
      coverage: {
        verdict: 'direct',
        readFrom: { kind: 'working-tree' },
        allowance: { entries: [{ program: 'cargo', sources: [{ kind: 'declared' }] }], declaration: { kind: 'declared' } },
      },
    });
  });

  it('reads a pipe as partial, naming the command as not checked', async () => {
    await repo.write('specs/004.md', specText(['make', 'make test | tee log', './x.sh', 'FOO=1 make', 'env make']));
    const plan = await planCoverageAt({ repository: repo.path, spec: '004', source: WORKING_TREE, adapterCommands: ['make'] });
    expect(plan).toMatchObject({
      kind: 'planned',
      coverage: { verdict: 'partial', notChecked: ['make test | tee log', 'FOO=1 make', 'env make'] },
    });
  });

  it('refuses a declared entry holding "/" or whitespace, naming the file, field and entry', async () => {
    await repo.write('specs/004.md', specText(['make']));
    await repo.write('.statecraft/environment.json', declarationText(['make', '/usr/bin/cargo', 'cargo test']));
    const plan = await planCoverageAt({ repository: repo.path, spec: '004', source: WORKING_TREE, adapterCommands: [] });
    expect(plan).toMatchObject({ kind: 'refused', input: 'allowance', reason: 'declaration-invalid' });
    if (plan.kind !== 'refused') throw new Error('expected a refusal');
    expect(plan.message).toContain('.statecraft/environment.json: field "project.commands[1]": "/usr/bin/cargo" contains "/"');
    expect(plan.message).toContain('.statecraft/environment.json: field "project.commands[2]": "cargo test" contains whitespace');
  });

  it('records not-applicable for a run without a spec', async () => {
    const plan = await planCoverageAt({ repository: repo.path, source: WORKING_TREE, adapterCommands: ['git'] });
    expect(plan).toMatchObject({ kind: 'planned', coverage: { verdict: 'not-applicable', spec: 'none' }, digests: { suitePlan: 'none', allowance: 'absent' } });
  });
});

describe('reading a commit (R9.4)', () => {
  it('reads the inputs as the commit holds them, not the working tree, and records the full commit', async () => {
    await repo.write('specs/004.md', specText(['cargo test']));
    await repo.write('.statecraft/environment.json', declarationText(['cargo']));
    const commit = await repo.commit('declare cargo');
    await repo.write('.statecraft/environment.json', declarationText(['rustc']));
    await repo.write('specs/004.md', specText(['rustc x.rs']));
    const plan = await planCoverageAt({ repository: repo.path, spec: '004', source: { kind: 'commit', commit: 'HEAD' }, adapterCommands: [] });
    expect(plan).toMatchObject({
      kind: 'planned',
      coverage: { verdict: 'direct', readFrom: { kind: 'commit', commit }, commands: [{ kind: 'simple', program: 'cargo' }] },
    });
    if (plan.kind !== 'planned') throw new Error('expected a plan');
    expect(RecordedCoverageSchema.parse(plan.coverage)).toEqual(plan.coverage);
  });

  it('names the commit in a refusal of a declaration malformed there', async () => {
    await repo.write('specs/004.md', specText(['make']));
    await repo.write('.statecraft/environment.json', declarationText([]));
    const commit = await repo.commit('an empty list');
    const plan = await planCoverageAt({ repository: repo.path, spec: '004', source: { kind: 'commit', commit }, adapterCommands: ['make'] });
    expect(plan).toMatchObject({ kind: 'refused', reason: 'declaration-invalid' });
    expect(plan).toMatchObject({
      message: expect.stringContaining(`.statecraft/environment.json at ${commit}: field "project.commands": is an empty list`) as unknown,
    });
  });

  it('refuses a commit the repository does not have', async () => {
    await repo.commit('empty');
    const reading = await readCoverageInputs({ repository: repo.path, spec: '004', source: { kind: 'commit', commit: 'f'.repeat(40) } });
    expect(reading).toMatchObject({ kind: 'refused', input: 'repository', reason: 'unknown-commit' });
  });

  it('reads the stored bytes, untouched by the smudge filter and line-ending attributes a checkout or an archive would apply', async () => {
    await repo.write('.gitattributes', '*.json filter=rewrite text eol=crlf\n');
    await repo.write('.statecraft/environment.json', declarationText(['cargo']));
    await repo.git('config', 'filter.rewrite.smudge', 'sed s/cargo/rustc/');
    await repo.git('config', 'filter.rewrite.clean', 'cat');
    const commit = await repo.commit('a filtered declaration');
    const reading = await readCoverageInputs({ repository: repo.path, source: { kind: 'commit', commit } });
    expect(reading).toMatchObject({ kind: 'read', declaration: { kind: 'present', text: declarationText(['cargo']) } });
  });
});
