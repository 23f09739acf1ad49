import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { doctorSteps } from '../../fixtures/doctor-findings.js';
import { rowsRejoined, runStatecraft } from '../../fixtures/statecraft-cli.js';

const targets = useTestTargets({ sharedRepository: false });
const { attempt, doctor, findingsOf } = doctorSteps(() => targets.home.path);

describe("doctor checks target.json against the chain's intents and the key its path derives to", () => {
  it('target.json rewritten to name another repository is a finding naming target.json (exit 1)', async () => {
    const target = await targets.fresh();
    const other = await targets.fresh();
    const account = await attempt(target.path);
    const file = join(dirname(account.records.chain), 'target.json');
    const key = (JSON.parse(await readFile(file, 'utf8')) as { key: string }).key;
    expect(findingsOf((await doctor()).value, account)).toEqual([]);
    await writeFile(file, `${JSON.stringify({ path: other.path, key })}\n`);

    const { run, value } = await doctor();
    expect(run.exitCode).toBe(1);
    const found = findingsOf(value, account);
    expect(found).toEqual([expect.objectContaining({ kind: 'target-name-disagrees', path: file })]);
    expect(found[0]?.message).toContain(`the chain's intents record the target ${target.path}, never ${other.path}`);
    expect(found[0]?.message).toContain(`the path ${other.path} derives to the key`);
    const human = await runStatecraft(['doctor'], { home: targets.home.path });
    expect(rowsRejoined(human.stdout, 4)).toContain(`target-name-disagrees: ${file}`);
  });

  it('target.json naming a key it is not filed under is a finding', async () => {
    const target = await targets.fresh();
    const account = await attempt(target.path);
    const file = join(dirname(account.records.chain), 'target.json');
    await writeFile(file, `${JSON.stringify({ path: target.path, key: '0123456789abcdef0123456789abcdef' })}\n`);

    const { run, value } = await doctor();
    expect(run.exitCode).toBe(1);
    const found = findingsOf(value, account);
    expect(found).toEqual([expect.objectContaining({ kind: 'target-name-disagrees', path: file })]);
    expect(found[0]?.message).toContain('it names the key 0123456789abcdef0123456789abcdef, but is filed under');
  });

  it("a chain first run from a linked worktree (filed under its main worktree's key) is no finding", async () => {
    const target = await targets.fresh();
    const linked = `${target.path}-linked`;
    await promisify(execFile)('git', ['-C', target.path, 'worktree', 'add', '-q', '-b', 'linked', linked]);
    try {
      const account = await attempt(linked);
      const named = JSON.parse(await readFile(join(dirname(account.records.chain), 'target.json'), 'utf8')) as { path: string };
      expect(named.path).toBe(linked);
      expect(findingsOf((await doctor()).value, account)).toEqual([]);
    } finally {
      await rm(linked, { recursive: true, force: true });
    }
  });

  // Run writes target.json before a chain's first intent, so a chain
  // with intents and no readable name is as impossible as one without its checkpoint.
  const replacements: [string, (file: string) => Promise<unknown>, string][] = [
    ['deleted', () => Promise.resolve(), 'is missing'],
    ['garbled', (file) => writeFile(file, 'not json\n'), 'is not JSON'],
    ['a FIFO', (file) => promisify(execFile)('mkfifo', [file]), 'is not a regular file'],
    ['a directory', (file) => mkdir(file), 'is not a regular file'],
  ];
  it.each(replacements)(
    'target.json %s while the chain holds intents is a finding naming the file and the target the intents record (exit 1)',
    async (_how, replace, said) => {
      const target = await targets.fresh();
      const account = await attempt(target.path);
      const file = join(dirname(account.records.chain), 'target.json');
      await rm(file);
      await replace(file);

      const { run, value } = await doctor();
      expect(run.exitCode).toBe(1);
      const found = findingsOf(value, account);
      expect(found).toEqual([expect.objectContaining({ kind: 'target-name-unreadable', path: file })]);
      expect(found[0]?.message).toContain(`${file} ${said}`);
      expect(found[0]?.message).toContain(`intents recording the target ${target.path}`);
    },
  );
});
