import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VERB_ANSWERS, verbDocumentSchema, verbOf } from '@statecraft/cli/json-schemas';

const packageDir = fileURLToPath(new URL('../../../packages/cli/', import.meta.url));

function check(): { status: number; stderr: string } {
  try {
    execFileSync(process.execPath, ['scripts/generate-schema.mjs', '--check'], { cwd: packageDir, stdio: 'pipe' });
    return { status: 0, stderr: '' };
  } catch (error) {
    const failure = error as { status: number; stderr: Buffer };
    return { status: failure.status, stderr: failure.stderr.toString() };
  }
}

describe('the published --json schemas of every verb are current (R11)', () => {
  it('the committed JSON Schema files match what the zod schemas generate', () => {
    expect(check()).toEqual({ status: 0, stderr: '' });
  });

  it('every verb the command line has is published, each with the error documents beside its answer', () => {
    expect(Object.keys(VERB_ANSWERS).sort()).toEqual(
      [
        'accept',
        'collect',
        'doctor',
        'env-plan',
        'export',
        'keys-generate',
        'keys-show',
        'land',
        'prune',
        'qualifications-check',
        'qualifications-list',
        'qualifications-show',
        'qualify',
        'run',
        'run-list',
        'run-show',
        'run-diff',
        'run-log',
        'run-reconcile',
        'verify',
      ].sort(),
    );
    for (const verb of Object.keys(VERB_ANSWERS)) {
      const published = JSON.parse(readFileSync(`${packageDir}/schema/${verb}.schema.json`, 'utf8')) as { anyOf: unknown[] };
      expect(published.anyOf).toHaveLength(2);
    }
  });

  it('a field the schema does not describe is refused: an addition is a change to the schema, made on purpose', () => {
    const usage = { usage: { message: 'unknown option' } };
    expect(verbDocumentSchema('doctor').safeParse(usage).success).toBe(true);
    expect(verbDocumentSchema('doctor').safeParse({ ...usage, extra: 1 }).success).toBe(false);
    expect(verbDocumentSchema('doctor').safeParse({ home: '/h', exists: false, targets: [], findings: [], surprise: true }).success).toBe(false);
  });

  it('the verb is read from the command line the way commander reads it', () => {
    expect(verbOf(['run', '/repo', '--adapter', 'fixture', '--json'])).toBe('run');
    expect(verbOf(['run', 'show', '/repo', 'r', '--json'])).toBe('run-show');
    expect(verbOf(['run', 'list', '/repo', '--json'])).toBe('run-list');
    expect(verbOf(['run', 'diff', 'latest', '--json'])).toBe('run-diff');
    expect(verbOf(['run', 'log', '/repo', 'r', '--json'])).toBe('run-log');
    expect(verbOf(['qualifications', 'check', '/a', '--json'])).toBe('qualifications-check');
    expect(verbOf(['env', 'plan', '/repo', '--json'])).toBe('env-plan');
    expect(verbOf(['bogus', '--json'])).toBeUndefined();
  });
});
