import { describe, expect, it } from 'vitest';
import { assessCoverage, suitePlanDigest } from '@statecraft/run';
import {
  buildAllowance,
  classifyCommand,
  compareCoverage,
  COVERAGE_LIMITS,
  describeCoverage,
  readRecordedCoverage,
  RecordedCoverageSchema,
  sha256Hex,
  type DeclarationInput,
} from '@statecraft/adapter';

// R9.1 (the allowance), R9.3 (the verdicts and their limits), R9.4 (what is recorded).

const DIGEST = `sha256:${sha256Hex('{"project":{"commands":["cargo"]}}')}`;
const DECLARATION_PATH = '.statecraft/environment.json';
const absent: DeclarationInput = { kind: 'absent', path: DECLARATION_PATH };
const declared = (commands: string[]): DeclarationInput => ({ kind: 'declared', path: DECLARATION_PATH, digest: DIGEST, commands });
const COMMIT = 'a'.repeat(40);
const spec = (commands: string[]) => ({
  id: '004',
  path: 'specs/004/spec.md',
  text: ['# 004', '', '## Verification', '```sh', ...commands, '```', ''].join('\n'),
});

describe('the allowance (R9.1)', () => {
  it('tags each program with where it came from, the declaration with its digest', () => {
    const allowance = buildAllowance({ adapterCommands: ['git', 'node'], declaration: declared(['cargo', 'git']) });
    expect(allowance).toEqual({
      entries: [
        { program: 'git', sources: [{ kind: 'adapter' }, { kind: 'declared', digest: DIGEST }] },
        { program: 'node', sources: [{ kind: 'adapter' }] },
        { program: 'cargo', sources: [{ kind: 'declared', digest: DIGEST }] },
      ],
      declaration: { kind: 'declared', path: DECLARATION_PATH, digest: DIGEST },
    });
  });

  it('records an absent declaration as absent, with only the adapter entries', () => {
    expect(buildAllowance({ adapterCommands: ['git'], declaration: absent })).toEqual({
      entries: [{ program: 'git', sources: [{ kind: 'adapter' }] }],
      declaration: { kind: 'absent', path: DECLARATION_PATH },
    });
  });
});

describe('the verdicts (R9.3)', () => {
  const allowance = buildAllowance({ adapterCommands: ['git'], declaration: declared(['make']) });

  it('refuses when a program is missing, naming each program and every command that names it', () => {
    const commands = ['cargo test', 'make', 'cargo build', 'rustfmt --check x'].map(classifyCommand);
    const comparison = compareCoverage({ allowance, commands });
    expect(comparison.verdict).toBe('refused');
    expect(comparison.missing).toEqual([
      { program: 'cargo', commands: ['cargo test', 'cargo build'] },
      { program: 'rustfmt', commands: ['rustfmt --check x'] },
    ]);
  });

  it('is partial when nothing is missing and some commands are unparsed, naming them as not checked', () => {
    const comparison = compareCoverage({ allowance, commands: ['make', 'git log | head'].map(classifyCommand) });
    expect(comparison).toMatchObject({ verdict: 'partial', missing: [], notChecked: ['git log | head'] });
  });

  it('is refused, not partial, when a program is missing beside an unparsed command', () => {
    const comparison = compareCoverage({ allowance, commands: ['cargo test', 'FOO=1 make'].map(classifyCommand) });
    expect(comparison).toMatchObject({ verdict: 'refused', notChecked: ['FOO=1 make'] });
  });

  it('is direct when every command parsed and every program is allowed; a path needs no entry', () => {
    const comparison = compareCoverage({ allowance, commands: ['make check', 'git status', './x.sh'].map(classifyCommand) });
    expect(comparison).toMatchObject({ verdict: 'direct', missing: [], notChecked: [] });
  });

  it('is direct for an empty plan, since nothing is missing and nothing was left unread', () => {
    expect(compareCoverage({ allowance, commands: [] }).verdict).toBe('direct');
  });

  it('is not-applicable when the run has no spec', () => {
    expect(compareCoverage({ allowance, commands: 'no-spec' }).verdict).toBe('not-applicable');
  });

  it('carries both limits with every verdict, and no verdict is called complete', () => {
    for (const commands of [[], ['cargo'], ['a | b'], 'no-spec'] as const) {
      const comparison = compareCoverage({
        allowance,
        commands: commands === 'no-spec' ? commands : commands.map(classifyCommand),
      });
      expect(comparison.limits).toEqual([...COVERAGE_LIMITS]);
      expect(comparison.verdict).not.toBe('complete');
    }
    expect(COVERAGE_LIMITS[0]).toMatch(/run by another program .* is not seen/);
    expect(COVERAGE_LIMITS[1]).toMatch(/compared, not enforced/);
  });
});

describe('assessing a spec against an allowance (R9.2-R9.4)', () => {
  it('refuses cargo with no declaration, naming cargo', () => {
    const assessment = assessCoverage({
      readFrom: { kind: 'commit', commit: COMMIT },
      spec: spec(['cargo test']),
      declaration: absent,
      adapterCommands: [],
    });
    expect(assessment).toMatchObject({
      kind: 'assessed',
      coverage: { verdict: 'refused', missing: [{ program: 'cargo', commands: ['cargo test'] }] },
      digests: { allowance: 'absent' },
    });
  });

  it('reads cargo as direct once it is declared, and records a schema-valid coverage', () => {
    const assessment = assessCoverage({
      readFrom: { kind: 'commit', commit: COMMIT },
      spec: spec(['cargo test', './x.sh']),
      declaration: declared(['cargo']),
      adapterCommands: ['git'],
    });
    if (assessment.kind !== 'assessed') throw new Error(assessment.message);
    expect(assessment.coverage).toMatchObject({
      verdict: 'direct',
      readFrom: { kind: 'commit', commit: COMMIT },
      spec: { id: '004', path: 'specs/004/spec.md', digest: `sha256:${sha256Hex(spec(['cargo test', './x.sh']).text)}` },
      planDigest: suitePlanDigest(['cargo test', './x.sh']),
      commands: [
        { kind: 'simple', text: 'cargo test', program: 'cargo' },
        { kind: 'path', text: './x.sh', program: './x.sh' },
      ],
    });
    expect(assessment.digests).toEqual({ allowance: DIGEST, suitePlan: suitePlanDigest(['cargo test', './x.sh']) });
    expect(RecordedCoverageSchema.parse(JSON.parse(JSON.stringify(assessment.coverage)))).toEqual(assessment.coverage);
  });

  it('digests only the Verification commands, so prose and comments elsewhere do not change the suite plan', () => {
    const read = (text: string) =>
      assessCoverage({ readFrom: { kind: 'working-tree' }, spec: { id: '004', path: 'specs/004.md', text }, declaration: absent, adapterCommands: ['make'] });
    const before = read('# A\n## Verification\n```\nmake\n```\n');
    const prose = read('# A, edited\nNew prose.\n## Verification\n```\n# a comment\nmake\n```\n## After\n');
    const changed = read('# A\n## Verification\n```\nmake check\n```\n');
    if (before.kind !== 'assessed' || prose.kind !== 'assessed' || changed.kind !== 'assessed') throw new Error('not assessed');
    expect(prose.digests.suitePlan).toBe(before.digests.suitePlan);
    expect(changed.digests.suitePlan).not.toBe(before.digests.suitePlan);
  });

  it('refuses a spec without a Verification section as a suite-plan refusal naming the file', () => {
    const assessment = assessCoverage({
      readFrom: { kind: 'working-tree' },
      spec: { id: '004', path: 'specs/004.md', text: '# no checks here\n' },
      declaration: absent,
      adapterCommands: [],
    });
    expect(assessment).toMatchObject({ kind: 'refused', input: 'suite plan', reason: 'no-verification-section' });
    expect(assessment).toMatchObject({ message: expect.stringContaining('specs/004.md') as unknown });
  });

  it('records not-applicable, with the allowance, for a run without a spec', () => {
    const assessment = assessCoverage({ readFrom: { kind: 'commit', commit: COMMIT }, spec: 'none', declaration: absent, adapterCommands: ['git'] });
    expect(assessment).toMatchObject({
      kind: 'assessed',
      coverage: { verdict: 'not-applicable', spec: 'none', allowance: { entries: [{ program: 'git' }] } },
      digests: { allowance: 'absent', suitePlan: 'none' },
    });
  });
});

describe('reading and rendering a recorded coverage (R9.3, R9.4)', () => {
  it('reads an attempt recorded before coverage existed as not-checked, never as covered', () => {
    const reading = readRecordedCoverage(undefined);
    expect(reading).toMatchObject({ kind: 'read', coverage: { verdict: 'not-checked' } });
  });

  it('reports a present but malformed coverage as malformed', () => {
    expect(readRecordedCoverage({ verdict: 'complete' }).kind).toBe('malformed');
  });

  it('shows both limits in every rendering, whatever the verdict', () => {
    const checked = assessCoverage({
      readFrom: { kind: 'commit', commit: COMMIT },
      spec: spec(['cargo test', 'a | b']),
      declaration: absent,
      adapterCommands: [],
    });
    const none = assessCoverage({ readFrom: { kind: 'commit', commit: COMMIT }, spec: 'none', declaration: absent, adapterCommands: [] });
    const notChecked = readRecordedCoverage(undefined);
    if (checked.kind !== 'assessed' || none.kind !== 'assessed' || notChecked.kind !== 'read') throw new Error('setup');
    for (const coverage of [checked.coverage, none.coverage, notChecked.coverage]) {
      const text = describeCoverage(coverage).join('\n');
      expect(text).toContain(COVERAGE_LIMITS[0]);
      expect(text).toContain(COVERAGE_LIMITS[1]);
      expect(text).toContain(`coverage: ${coverage.verdict}`);
    }
    const lines = describeCoverage(checked.coverage).join('\n');
    expect(lines).toContain('missing: cargo, named by `cargo test`');
    expect(lines).toContain('not checked: `a | b`');
  });
});

describe('coverage recorded before it was wired (issue 5, item 5)', () => {
  it('reads the placeholder { verdict: not-checked, reason } as not-checked, keeping the reason and adding the limits', () => {
    const reading = readRecordedCoverage({ verdict: 'not-checked', reason: 'the coverage check is not wired yet' });
    expect(reading).toEqual({
      kind: 'read',
      coverage: { verdict: 'not-checked', reason: 'the coverage check is not wired yet', limits: [...COVERAGE_LIMITS] },
    });
  });
});
