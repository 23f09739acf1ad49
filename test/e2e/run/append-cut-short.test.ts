import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { dir, type DirectoryResult } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendRecord, openChain, type ChainPosition, type UnlinkedRecord } from '@statecraft/records';
import { sampleIntent } from '../../../packages/records/test/sample-records.js';
const RUN_PACKAGE = fileURLToPath(new URL('../../../packages/records/dist/index.js', import.meta.url));

let scratch: DirectoryResult;
let chain: string;
beforeEach(async () => {
  scratch = await dir({ unsafeCleanup: true, prefix: 'statecraft-append-cut' });
  chain = join(scratch.path, 'targets', 'k', 'chain.jsonl');
});
afterEach(async () => {
  await scratch.cleanup();
});

/**
 * An append that the disk cuts short: the write stopped
 * partway and left a torn line, while the failure said "nothing appended". A real per-file size
 * limit (util-linux `prlimit --fsize`) makes the kernel stop the record's write a few bytes in.
 */
describe('an append cut short by the disk leaves the chain as it was (R8.4)', () => {
  it('the partial line is withdrawn: the chain has its earlier bytes exactly and no torn tail', async () => {
    let position: ChainPosition = { head: 'genesis', nextSeq: 0, length: 0, torn: 'none' };
    for (const attempt of [1, 2]) position = (await appendRecord(chain, position, sampleIntent(attempt) as UnlinkedRecord)).position;
    const before = await readFile(chain);
    const program = `
      process.on('SIGXFSZ', () => undefined);
      const { appendRecord } = await import(${JSON.stringify(RUN_PACKAGE)});
      const [chain, position, record] = JSON.parse(process.argv[1]);
      try { await appendRecord(chain, position, record); process.exit(0); } catch (error) { process.stderr.write(String(error.code)); process.exit(7); }`;
    const cut = await execa(
      'prlimit',
      [`--fsize=${before.length + 40}`, '--', process.execPath, '--input-type=module', '-e', program, JSON.stringify([chain, position, sampleIntent(3)])],
      { reject: false },
    );
    expect({ exitCode: cut.exitCode, code: cut.stderr }).toEqual({ exitCode: 7, code: 'EFBIG' });
    expect(await readFile(chain)).toEqual(before);
    expect(await openChain(chain)).toMatchObject({ kind: 'opened', nextSeq: 2, torn: 'none' });
  });
});
