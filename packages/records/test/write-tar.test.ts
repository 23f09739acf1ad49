import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { list } from 'tar';
import { afterEach, describe, expect, it } from 'vitest';
import { writeTar } from '../src/bundle/write-tar.js';

// The bundle's tar is written by statecraft and read by node-tar's strict reader (read-bundle.ts):
// every entry must come back with its path and its bytes, a path longer than ustar holds included.

let scratch: string;
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

/** Every file entry of a tar as node-tar's strict reader gives it: path, type and bytes. */
function entriesOf(path: string): { path: string; type: string; bytes: Buffer }[] {
  const found: { path: string; type: string; bytes: Buffer }[] = [];
  list({
    file: path,
    sync: true,
    strict: true,
    onReadEntry: (entry) => {
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => found.push({ path: entry.path, type: entry.type, bytes: Buffer.concat(chunks) }));
    },
  });
  return found;
}

describe('writeTar', () => {
  it('writes each file at its path with its bytes, block-padded, a long path in a pax header', () => {
    scratch = mkdtempSync(join(tmpdir(), 'statecraft-tar-'));
    const files = {
      'manifest.json': Buffer.from('{"kind":"statecraft-bundle"}\n'),
      'chain/anchors.jsonl': Buffer.alloc(0),
      'attempts/run/1/stream.ndjson': Buffer.from('x'.repeat(3 * 1024 * 1024 + 7)),
      [`attempts/${'d'.repeat(150)}/${'n'.repeat(99)}`]: Buffer.from('split into prefix and name'),
      [`qualifications/${'q'.repeat(180)}.json`]: Buffer.from('{"a name longer than ustar holds":true}'),
      [`${'a'.repeat(60)}/${'b'.repeat(60)}`]: Buffer.from('512 bytes exactly'.padEnd(512, '.')),
    };
    const entries = Object.entries(files).map(([path, bytes], index) => {
      const source = join(scratch, `source-${String(index)}`);
      writeFileSync(source, bytes);
      return { path, source, bytes: bytes.length };
    });
    const tar = join(scratch, 'bundle.tar');
    writeTar(tar, entries);
    const read = entriesOf(tar);
    expect(read.map((entry) => [entry.path, entry.type])).toEqual(Object.keys(files).map((path) => [path, 'File']));
    for (const entry of read) expect(entry.bytes.equals(files[entry.path] ?? Buffer.alloc(1))).toBe(true);
  });

  it('fails, leaving no file, when a file is shorter than the bytes digested: it changed after its digest', () => {
    scratch = mkdtempSync(join(tmpdir(), 'statecraft-tar-'));
    const source = join(scratch, 'stream.ndjson');
    writeFileSync(source, 'short');
    const tar = join(scratch, 'bundle.tar');
    expect(() => writeTar(tar, [{ path: 'stream.ndjson', source, bytes: 100 }])).toThrow(/changed while it was exported/);
    expect(existsSync(tar)).toBe(false);
  });
});
