import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { recordedStreamsDirectory } from '@statecraft/adapter-codex';

// The recorded streams' provenance is checkable: the one recording script, run again against the
// pinned codex and the model double, reproduces every committed stream byte for byte. A change
// in the pinned binary's behaviour shows here first, as a diff to review (packages/adapter-codex/testdata/stream/README.md).

const script = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'packages', 'adapter-codex', 'scripts', 'record-streams.mjs');

describe('the recorded Codex streams', () => {
  it('are reproduced byte for byte by the recording script against the pinned binary', async () => {
    const into = await mkdtemp(join(tmpdir(), 'statecraft-rerecord-'));
    try {
      await execa(process.execPath, [script], { env: { STATECRAFT_RECORD_INTO: into }, timeout: 150_000 });
      const committed = (await readdir(recordedStreamsDirectory())).filter((name) => name.endsWith('.jsonl')).sort();
      expect((await readdir(into)).sort()).toEqual(committed);
      for (const name of committed) {
        expect(await readFile(join(into, name), 'utf8'), name).toBe(await readFile(join(recordedStreamsDirectory(), name), 'utf8'));
      }
    } finally {
      await rm(into, { recursive: true, force: true });
    }
  }, 180_000);
});
