import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChainRecordSchema, resolveTarget, targetDirectoryIn } from '@statecraft/records';
import { warmSchemasForSnapshot } from '../packages/cli/dist/snapshot-warm-schemas.js';
import { useTestTargets } from './fixtures/sample-repository.js';
import { parseJson, runStatecraft } from './fixtures/statecraft-cli.js';

const targets = useTestTargets();

/**
 * The start-up snapshot is built with zod's first-parse work done on the schemas the verbs parse
 * at run time (packages/cli/src/snapshot-warm-schemas.ts). It finds them through zod's internals:
 * should those change, it would quietly warm only the roots; this says so. And warming changes no
 * answer: a run's records read the same afterwards.
 */
describe('the schemas warmed into the start-up snapshot', () => {
  it('reaches the parts of the run-time schemas, not only their roots, and leaves every answer as it was', async () => {
    const run = await runStatecraft(['run', targets.repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], {
      home: targets.home.path,
    });
    expect(parseJson<{ outcome: string }>(run).outcome).toBe('completed');
    const resolution = await resolveTarget(targets.repository.path);
    if (resolution.kind !== 'resolved') throw new Error(resolution.message);
    const lines = (await readFile(join(targetDirectoryIn(targets.home.path, resolution.target.key), 'chain.jsonl'), 'utf8')).split('\n').filter(Boolean);
    const before = lines.map((line) => ChainRecordSchema.safeParse(JSON.parse(line)));

    // Twelve roots; the chain's record schema alone has hundreds of parts.
    expect(warmSchemasForSnapshot()).toBeGreaterThan(300);

    const after = lines.map((line) => ChainRecordSchema.safeParse(JSON.parse(line)));
    expect(after).toEqual(before);
    expect(after.every((parsed) => parsed.success)).toBe(true);
    expect(ChainRecordSchema.safeParse({ kind: 'intent' }).success).toBe(false);
  });
});
