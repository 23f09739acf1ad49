import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { digestFile, fixtureAdapterPath } from '@statecraft/adapter';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

interface QualifyDocument {
  passed: boolean;
  driver: string;
  adapter: { name: string; digest: string };
  cases: { row: number; status: string; evidence: string; detail: string }[];
  record: { id: string } | null;
}

const scratch = scratchDirectories();

/**
 * A copy of the shipped fixture (its manifest too, still saying `fixture`), with `change` applied
 * to its text: a real executable in a directory of its own.
 */
async function fixtureCopy(change: (text: string) => string): Promise<string> {
  const directory = await scratch.make('statecraft-fixture-copy');
  const copy = join(directory, 'statecraft-fixture-adapter');
  await copyFile(`${fixtureAdapterPath()}.manifest.json`, `${copy}.manifest.json`);
  await writeFile(copy, change(await readFile(fixtureAdapterPath(), 'utf8')), { mode: 0o755 });
  return copy;
}

/**
 * Counts its own invocations in a file beside it and, on the second, appends a comment to its own
 * file: an adapter that rewrites itself while the suite runs.
 */
const REWRITE_ON_SECOND_RUN = `
{
  const self = process.argv[1];
  const counter = \`\${self}.invocations\`;
  let invocations = 0;
  try { invocations = Number(readFileSync(counter, 'utf8')); } catch { invocations = 0; }
  writeFileSync(counter, String(invocations + 1));
  if (invocations + 1 === 2) appendFileSync(self, '\\n// rewritten by itself during the suite\\n');
}
`;

/** After the fixture's last import line, whose imports the inserted code uses (appendFileSync, readFileSync, writeFileSync from node:fs). */
function insertAfterImports(text: string, code: string): string {
  const lines = text.split('\n');
  const fs = lines.findIndex((line) => line.startsWith('import {') && line.endsWith("from 'node:fs';"));
  const last = lines.reduce((found, line, index) => (line.startsWith('import ') ? index : found), -1);
  if (fs === -1 || !['appendFileSync', 'readFileSync', 'writeFileSync'].every((name) => lines[fs]?.includes(name))) {
    throw new Error('the fixture no longer imports appendFileSync, readFileSync and writeFileSync from node:fs as this test expects');
  }
  lines.splice(last + 1, 0, code);
  return lines.join('\n');
}

describe('a qualification binds the bytes that ran every case (R3.1, R4)', () => {
  it('under the evidence boundary an adapter cannot rewrite its own file during the suite: its bytes stay those that were measured (R12)', async () => {
    const home = await scratch.make('statecraft-home');
    const adapter = await fixtureCopy((text) => insertAfterImports(text, REWRITE_ON_SECOND_RUN));
    const before = await digestFile(adapter);
    await runStatecraft(['qualify', adapter, '--json'], { home, timeoutMs: 120_000 });
    expect(await digestFile(adapter)).toBe(before);
  });

  it('an adapter that rewrites its own file during the suite (boundary none) is not qualified; the change is named and no record is written', async () => {
    const home = await scratch.make('statecraft-home');
    const adapter = await fixtureCopy((text) => insertAfterImports(text, REWRITE_ON_SECOND_RUN));
    const before = await digestFile(adapter);
    // Without the boundary, where the adapter can write its own file: the digest check is the defence there.
    const answer = await runStatecraft(['qualify', adapter, '--json', '--boundary', 'none'], { home, timeoutMs: 120_000 });
    const after = await digestFile(adapter);
    expect(after).not.toBe(before);
    expect(answer.exitCode).toBe(1);
    const document = parseJson<QualifyDocument>(answer);
    expect(document.passed).toBe(false);
    expect(document.record).toBeNull();
    expect(document.adapter.digest).toBe(before);
    const changed = document.cases.find((entry) => entry.status === 'fail');
    if (changed === undefined) throw new Error(`no case failed: ${answer.stdout}`);
    expect(changed.detail).toContain(`the adapter executable ${adapter} changed: ${before} when the suite started, ${after} now`);
    const later = document.cases.filter((entry) => entry.row > changed.row);
    expect(later.length).toBeGreaterThan(0);
    for (const entry of later)
      expect(entry).toMatchObject({
        status: 'not-run',
        evidence: 'none',
        detail: expect.stringContaining(`the suite stopped after row ${changed.row}`) as unknown,
      });
    expect(await readdir(home)).not.toContain('qualifications');
  });

  it('a modified copy of the fixture whose manifest still says fixture is qualified on live evidence, not fixture evidence', async () => {
    const home = await scratch.make('statecraft-home');
    const adapter = await fixtureCopy((text) => `${text}\n// one comment more than the shipped fixture\n`);
    const answer = await runStatecraft(['qualify', adapter, '--json'], { home, timeoutMs: 120_000 });
    const document = parseJson<QualifyDocument>(answer);
    expect(document.adapter.name).toBe('fixture');
    expect(document.driver).toBe('scenario-prompt');
    const evidence = new Set(document.cases.map((entry) => entry.evidence));
    expect(evidence.has('fixture')).toBe(false);
    expect(evidence.has('live')).toBe(true);
    expect(answer.exitCode).toBe(0);
  });

  it("the shipped fixture's own bytes, qualified by path, keep the evidence kind fixture", async () => {
    const home = await scratch.make('statecraft-home');
    const answer = await runStatecraft(['qualify', fixtureAdapterPath(), '--json'], { home, timeoutMs: 120_000 });
    const document = parseJson<QualifyDocument>(answer);
    expect(document.driver).toBe('fixture');
    expect(document.cases.filter((entry) => entry.evidence !== 'none').every((entry) => entry.evidence === 'fixture' || entry.evidence === 'replayed')).toBe(
      true,
    );
    expect(document.cases.some((entry) => entry.evidence === 'fixture')).toBe(true);
    expect(answer.exitCode).toBe(0);
  });
});
