import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { openRegularFileSync } from '@statecraft/adapter';

/** One file of a bundle's tar: its path in the bundle, where its bytes are read, and how many there are (the manifest's count). */
export interface TarEntry {
  path: string;
  source: string;
  bytes: number;
}

const BLOCK = 512;
const CHUNK = 1024 * 1024;
/** A ustar size field holds 11 octal digits. */
const MAX_ENTRY_BYTES = 8 ** 11 - 1;

/**
 * Writes a bundle's tar (POSIX ustar, a pax header for a path ustar cannot hold) to `output`, which
 * must not exist, entry by entry in the given order, each file copied through one 1 MiB buffer:
 * memory stays flat whatever the size of the files (node-tar's asynchronous writer held ~45 MB
 * for a 200 MB stream, and took three times as long). Each entry has the size the manifest
 * gives it; a file found shorter than that changed after it was digested, and fails the export
 * rather than writing a bundle that cannot verify. Nothing but the bytes, the path and the size
 * is taken from the file (mode 0644, no owner, the export's time), so the same files make the
 * same tar on any machine but for that time. A failed write leaves no file.
 */
export function writeTar(output: string, entries: readonly TarEntry[]): void {
  const fd = openSync(output, 'wx', 0o644);
  const mtime = Math.floor(Date.now() / 1000);
  const buffer = Buffer.allocUnsafe(CHUNK);
  try {
    for (const entry of entries) {
      if (entry.bytes > MAX_ENTRY_BYTES) throw new Error(`${entry.path} is ${String(entry.bytes)} bytes, more than a tar entry holds`);
      for (const block of headerBlocks(entry.path, entry.bytes, mtime)) writeAll(fd, block);
      copy(fd, entry, buffer);
      writeAll(fd, Buffer.alloc((BLOCK - (entry.bytes % BLOCK)) % BLOCK));
    }
    writeAll(fd, Buffer.alloc(2 * BLOCK));
  } catch (error) {
    closeSync(fd);
    rmSync(output, { force: true });
    throw error;
  }
  closeSync(fd);
}

function copy(fd: number, entry: TarEntry, buffer: Buffer): void {
  const source = openRegularFileSync(entry.source);
  try {
    for (let left = entry.bytes; left > 0;) {
      const read = readSync(source, buffer, 0, Math.min(CHUNK, left), null);
      if (read === 0) throw new Error(`${entry.source} changed while it was exported: it is shorter than the ${String(entry.bytes)} bytes digested`);
      writeAll(fd, buffer.subarray(0, read));
      left -= read;
    }
  } finally {
    closeSync(source);
  }
}

function writeAll(fd: number, bytes: Buffer): void {
  for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written, bytes.length - written);
}

/** The entry's header, preceded by a pax header carrying the path when ustar's name and prefix cannot. */
function headerBlocks(path: string, size: number, mtime: number): Buffer[] {
  const split = ustarName(path);
  if (split !== undefined) return [header({ ...split, size, mtime, type: '0' })];
  const record = paxRecord('path', path);
  const pax = header({ name: 'PaxHeader', prefix: '', size: record.length, mtime, type: 'x' });
  return [
    pax,
    record,
    Buffer.alloc((BLOCK - (record.length % BLOCK)) % BLOCK),
    header({ name: path.slice(-100).replace(/^\/+/, ''), prefix: '', size, mtime, type: '0' }),
  ];
}

/** A path as ustar's name (100 bytes) and prefix (155 bytes), split at a `/`; undefined when it does not fit. */
function ustarName(path: string): { name: string; prefix: string } | undefined {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: '' };
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) {
    const prefix = path.slice(0, at);
    const name = path.slice(at + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name.length > 0) return { name, prefix };
  }
  return undefined;
}

/** One pax record: `<length> <key>=<value>\n`, the length counting its own digits. */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body);
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
  return Buffer.from(`${String(length)}${body}`);
}

function header(fields: { name: string; prefix: string; size: number; mtime: number; type: '0' | 'x' }): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(fields.name, 0, 100, 'utf8');
  octal(block, 100, 8, 0o644);
  octal(block, 108, 8, 0);
  octal(block, 116, 8, 0);
  octal(block, 124, 12, fields.size);
  octal(block, 136, 12, fields.mtime);
  block.write(fields.type, 156, 1, 'latin1');
  block.write('ustar\u000000', 257, 8, 'latin1');
  block.write(fields.prefix, 345, 155, 'utf8');
  // The checksum is the sum of the header's bytes with its own field read as spaces.
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 8, 'latin1');
  return block;
}

function octal(block: Buffer, offset: number, length: number, value: number): void {
  block.write(`${value.toString(8).padStart(length - 1, '0')}\u0000`, offset, length, 'latin1');
}
