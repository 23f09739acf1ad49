/**
 * Run only while the start-up snapshot is built (main.ts): node's own modules are loaded into the
 * snapshot from node's code cache with most of their functions not yet compiled, and a start paid
 * for compiling each on its first call (file system, hashing, buffers, timers, streams, a child's
 * pipes). Called here once, they are compiled into the snapshot. Everything here is the calls statecraft makes at run time, on a scratch directory
 * that is removed before the snapshot is taken; the build's event loop runs until the last step
 * has ended, so nothing of it (no descriptor or timer) is held in the snapshot. A child's pipes are
 * warmed with the spawning (snapshot-warm-spawning.ts).
 *
 * What is never called here: anything that keeps state in the heap a start would reuse. Node's
 * `randomUUID()` hands out UUIDs from a cache of random bytes kept in the heap — filled at build,
 * every start would hand out the same ones — so it is called with `disableEntropyCache` (a fresh
 * read each time, nothing kept). `performance` is refreshed by node at every start. The scratch
 * directory is removed whatever happened.
 */
import { createHash, hash, randomBytes, randomFillSync, randomUUID } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import * as fs from 'node:fs';
import * as fsPromises from 'node:fs/promises';
import { isUtf8 } from 'node:buffer';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Starts the warm-up; its asynchronous part ends before the build's event loop does. Answers what
 * failed, by step (nothing, normally): a failure costs only speed, so the build goes on either way.
 */
export async function warmNodeBuiltinsForSnapshot(): Promise<string[]> {
  const failed: string[] = [];
  const step = (name: string, call: () => void) => {
    try {
      call();
    } catch (error) {
      failed.push(`${name}: ${(error as Error).message}`);
    }
  };
  let directory: string;
  try {
    directory = fs.mkdtempSync(join(tmpdir(), 'statecraft-snapshot-warm-'));
  } catch (error) {
    return [`scratch directory: ${(error as Error).message}`];
  }
  step('synchronous file system', () => warmSynchronousCalls(directory));
  step('values', warmValues);
  try {
    await warmAsynchronousCalls(directory);
  } catch (error) {
    failed.push(`asynchronous file system: ${(error as Error).message}`);
  } finally {
    await fsPromises.rm(directory, { recursive: true, force: true }).catch((error: Error) => failed.push(`removing ${directory}: ${error.message}`));
  }
  return failed;
}

/** The synchronous file system: the durable writes, the lock's link, reads, identities, and their failures. */
function warmSynchronousCalls(scratch: string): void {
  const file = join(scratch, 'file');
  fs.writeFileSync(file, 'line\n', { mode: 0o600 });
  const descriptor = fs.openSync(file, 'r+');
  fs.writeSync(descriptor, Buffer.from('L'), 0, 1, 0);
  fs.readSync(descriptor, Buffer.alloc(1), 0, 1, 0);
  fs.fstatSync(descriptor);
  fs.fsyncSync(descriptor);
  fs.closeSync(descriptor);
  fs.linkSync(file, join(scratch, 'link'));
  fs.renameSync(join(scratch, 'link'), join(scratch, 'renamed'));
  fs.unlinkSync(join(scratch, 'renamed'));
  fs.existsSync(file);
  fs.accessSync(file, fs.constants.R_OK);
  fs.statSync(file).isFile();
  fs.statSync(file, { bigint: true });
  fs.statSync(join(scratch, 'absent'), { throwIfNoEntry: false });
  fs.lstatSync(file).isDirectory();
  fs.realpathSync(file);
  fs.realpathSync.native(file);
  fs.readdirSync(scratch);
  fs.readdirSync(scratch, { withFileTypes: true });
  fs.readFileSync(file, 'utf8');
  fs.readFileSync(file);
  fs.symlinkSync(file, join(scratch, 'symlink'));
  fs.readlinkSync(join(scratch, 'symlink'));
  fs.mkdirSync(join(scratch, 'nested', 'deeper'), { recursive: true });
  const absent = join(scratch, 'absent');
  const failures = [
    () => fs.openSync(absent, 'r'),
    () => fs.accessSync(file, fs.constants.X_OK),
    () => fs.statSync(absent),
    () => fs.readFileSync(absent),
    () => fs.mkdirSync(scratch),
    () => fs.linkSync(file, file),
    () => fs.unlinkSync(absent),
    () => fs.renameSync(absent, file),
    () => fs.readlinkSync(file),
    () => fs.rmdirSync(scratch),
  ];
  for (const fail of failures) {
    try {
      fail();
    } catch {
      // Each failure's path through node is what is compiled.
    }
  }
  isAbsolute(file);
  basename(file);
  dirname(file);
  relative(scratch, file);
  resolve(scratch, 'file');
  fileURLToPath(pathToFileURL(file).href);
}

/** Buffers, text, hashing and randomness, timers, and a rejection handled late. */
function warmValues(): void {
  const bytes = Buffer.from('ab\ncd\n');
  bytes.indexOf(0x0a);
  bytes.lastIndexOf(0x0a);
  bytes.subarray(1, 2).toString('latin1');
  for (const encoding of ['utf8', 'hex', 'ascii', 'base64', 'binary', 'ucs2'] as const) bytes.toString(encoding);
  bytes.toString('utf8', 0, 2);
  bytes.slice(0, 1);
  Buffer.byteLength('text');
  isUtf8(bytes);
  Buffer.concat([bytes, bytes]);
  bytes.copy(Buffer.allocUnsafeSlow(8));
  Buffer.from([1, 2]);
  new StringDecoder('utf8').write(bytes);
  const decoder = new TextDecoder();
  decoder.decode(bytes, { stream: true });
  decoder.decode();
  createHash('sha256').update('text').update(bytes).digest('hex');
  hash('sha256', bytes, 'hex');
  randomBytes(8).toString('hex');
  randomFillSync(Buffer.alloc(8));
  randomUUID({ disableEntropyCache: true });
  performance.now();
  clearTimeout(setTimeout(() => undefined, 60_000));
  setTimeout(() => undefined, 1);
  setImmediate(() => undefined);
  const rejected = Promise.reject(new Error('handled in the next microtask'));
  queueMicrotask(() => void rejected.catch(() => undefined));
}

/** The promise-based file system, file streams, and a signal-aware `once`. */
async function warmAsynchronousCalls(scratch: string): Promise<void> {
  const file = join(scratch, 'file');
  const reading = await fsPromises.open(file, 'r');
  await reading.read(Buffer.alloc(2), 0, 2, 0);
  await reading.stat();
  await reading.readFile('utf8');
  await reading.close();
  const writing = await fsPromises.open(join(scratch, 'written'), 'wx');
  await writing.writeFile('text');
  await writing.sync();
  await writing.close();
  await fsPromises.readFile(file, 'utf8');
  await fsPromises.writeFile(join(scratch, 'other'), 'text');
  await fsPromises.stat(file);
  await fsPromises.stat(file, { bigint: true });
  await fsPromises.lstat(file);
  await fsPromises.access(file);
  await fsPromises.realpath(file);
  await fsPromises.readdir(scratch);
  await fsPromises.mkdir(join(scratch, 'made'), { recursive: true });
  await fsPromises.unlink(join(scratch, 'other'));
  await fsPromises.rename(join(scratch, 'written'), join(scratch, 'moved'));
  const streamed = await fsPromises.open(join(scratch, 'streamed'), 'w');
  await ended(streamed.createWriteStream());
  await ended(fs.createWriteStream(join(scratch, 'stream')));
  const descriptor = fs.openSync(join(scratch, 'synced'), 'w');
  await new Promise((done) => fs.fsync(descriptor, done));
  await new Promise((done) => fs.close(descriptor, done));
  await new Promise((done) => fs.stat(file, done));
  await new Promise((done) => fs.lstat(file, done));
  const emitter = new EventEmitter();
  const emitted = once(emitter, 'event', { signal: new AbortController().signal });
  emitter.emit('event');
  await emitted;
}

/** A write stream written one buffer (its `_write`), then two at once (its `_writev`), then ended. */
async function ended(stream: fs.WriteStream): Promise<void> {
  const failed = new Promise<never>((_, fail) => stream.on('error', fail));
  // Raced below; a failure after the last race is nobody's.
  failed.catch(() => undefined);
  await Promise.race([failed, new Promise<void>((done) => stream.write(Buffer.from('a'), () => done()))]);
  stream.write(Buffer.from('b'));
  await Promise.race([failed, new Promise<void>((done) => stream.end(Buffer.from('c'), () => done()))]);
}
