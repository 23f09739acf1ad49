import { createHash, type Hash } from 'node:crypto';
import { closeSync, fstatSync, lstatSync, readdirSync, readSync } from 'node:fs';
import { join, relative } from 'node:path';
import { EventStreamReader, openRegularFileSync } from '@statecraft/adapter';
import { BundleManifestSchema, manifestBytes, MANIFEST_PATH, MANIFEST_SIGNATURE_PATH, type BundleManifest, type BundleRole } from './bundle-manifest.js';

/** The roles whose files are read whole: records and documents, each bounded; the rest are only digested (the stream is also read). */
const HELD_ROLES: ReadonlySet<BundleRole> = new Set([
  'chain-records',
  'chain-anchors',
  'request',
  'result',
  'receipt',
  'receipt-signature',
  'qualification',
  'qualification-signature',
  'public-key',
]);
/** The most of one held file kept in memory: larger is no record statecraft writes, and is read as altered. */
const HELD_BYTES = 32 * 1024 * 1024;

/** One file as found in the bundle. */
export interface FoundFile {
  sha256: string;
  bytes: number;
  /** Its bytes, for a held role within the bound. */
  content?: Buffer;
  /** For a stream: the supervisor's reader, fed every byte and not yet ended. */
  reader?: EventStreamReader;
  /** For a git bundle: its first bytes, where its header names its commits (the pack after them is only digested). */
  head?: Buffer;
}

/** The most of a git bundle's start kept: its header, one line per prerequisite and ref, is far shorter. */
const GIT_BUNDLE_HEAD_BYTES = 64 * 1024;

export type BundleReading =
  | {
      kind: 'read';
      manifest: BundleManifest;
      manifestCanonical: boolean;
      /** `manifest.sigstore.json`, when the bundle carries one: the manifest's signature. */
      manifestSignature?: Buffer;
      files: Map<string, FoundFile>;
      notRegular: string[];
    }
  | { kind: 'unreadable'; path: string; message: string };

/** Thrown inside a reading: the bundle cannot be read as one, naming the file. */
class UnreadableBundle extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads a bundle once, whether a tar or a directory: `manifest.json` first (in a tar it must be the
 * first entry), then every other file, each hashed as it streams past, the records and documents
 * among them held (each bounded), and a stream fed to the supervisor's own reader. Memory stays
 * bounded whatever the size of the stream.
 */
export async function readBundle(path: string): Promise<BundleReading> {
  try {
    const stat = lstatSync(path);
    if (stat.isDirectory()) return readDirectoryBundle(path);
    if (!stat.isFile()) return { kind: 'unreadable', path, message: 'is neither a tar file nor a directory' };
    return await readTarBundle(path);
  } catch (error) {
    if (error instanceof UnreadableBundle) return { kind: 'unreadable', path: error.path, message: error.message };
    return { kind: 'unreadable', path, message: (error as Error).message };
  }
}

class FileCollector {
  manifest: BundleManifest | undefined;
  manifestCanonical = false;
  manifestSignature: Buffer | undefined;
  readonly files = new Map<string, FoundFile>();
  readonly notRegular: string[] = [];

  /** Starts one file: what its chunks go to, and what to call at its end. */
  begin(path: string): { push: (chunk: Buffer) => void; finish: () => void } {
    if (path === MANIFEST_PATH) return this.beginManifest();
    if (path === MANIFEST_SIGNATURE_PATH) return this.beginSignature();
    if (this.manifest === undefined) throw new UnreadableBundle(MANIFEST_PATH, `is not the bundle's first file (${path} comes before it)`);
    if (this.files.has(path)) throw new UnreadableBundle(path, 'appears twice in the bundle');
    const role = this.manifest.files.find((file) => file.path === path)?.role;
    const hash: Hash = createHash('sha256');
    const held: Buffer[] | undefined = role !== undefined && HELD_ROLES.has(role) ? [] : undefined;
    const reader = role === 'stream' ? new EventStreamReader() : undefined;
    const head: Buffer[] | undefined = role === 'git-bundle' ? [] : undefined;
    let bytes = 0;
    return {
      push: (chunk) => {
        hash.update(chunk);
        bytes += chunk.length;
        if (held !== undefined && bytes <= HELD_BYTES) held.push(Buffer.from(chunk));
        if (head !== undefined && bytes - chunk.length < GIT_BUNDLE_HEAD_BYTES)
          head.push(Buffer.from(chunk.subarray(0, GIT_BUNDLE_HEAD_BYTES - (bytes - chunk.length))));
        reader?.push(chunk);
      },
      finish: () => {
        const content = held !== undefined && bytes <= HELD_BYTES ? Buffer.concat(held) : undefined;
        this.files.set(path, {
          sha256: hash.digest('hex'),
          bytes,
          ...(content === undefined ? {} : { content }),
          ...(reader === undefined ? {} : { reader }),
          ...(head === undefined ? {} : { head: Buffer.concat(head) }),
        });
      },
    };
  }

  private beginSignature(): { push: (chunk: Buffer) => void; finish: () => void } {
    if (this.manifestSignature !== undefined) throw new UnreadableBundle(MANIFEST_SIGNATURE_PATH, 'appears twice in the bundle');
    const chunks: Buffer[] = [];
    let bytes = 0;
    return {
      push: (chunk) => {
        bytes += chunk.length;
        if (bytes > HELD_BYTES) throw new UnreadableBundle(MANIFEST_SIGNATURE_PATH, 'is larger than any signature');
        chunks.push(Buffer.from(chunk));
      },
      finish: () => {
        this.manifestSignature = Buffer.concat(chunks);
      },
    };
  }

  private beginManifest(): { push: (chunk: Buffer) => void; finish: () => void } {
    if (this.manifest !== undefined) throw new UnreadableBundle(MANIFEST_PATH, 'appears twice in the bundle');
    const chunks: Buffer[] = [];
    let bytes = 0;
    return {
      push: (chunk) => {
        bytes += chunk.length;
        if (bytes > HELD_BYTES) throw new UnreadableBundle(MANIFEST_PATH, 'is larger than any manifest');
        chunks.push(Buffer.from(chunk));
      },
      finish: () => {
        const text = Buffer.concat(chunks);
        let json: unknown;
        try {
          json = JSON.parse(text.toString('utf8'));
        } catch (error) {
          throw new UnreadableBundle(MANIFEST_PATH, `is not JSON (${(error as Error).message})`);
        }
        const parsed = BundleManifestSchema.safeParse(json);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new UnreadableBundle(MANIFEST_PATH, `is not a bundle manifest: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
        }
        this.manifest = parsed.data;
        this.manifestCanonical = manifestBytes(parsed.data).equals(text);
      },
    };
  }

  done(): BundleReading {
    if (this.manifest === undefined) throw new UnreadableBundle(MANIFEST_PATH, 'is missing: this is not a statecraft bundle');
    return {
      kind: 'read',
      manifest: this.manifest,
      manifestCanonical: this.manifestCanonical,
      ...(this.manifestSignature === undefined ? {} : { manifestSignature: this.manifestSignature }),
      files: this.files,
      notRegular: this.notRegular,
    };
  }
}

async function readTarBundle(path: string): Promise<BundleReading> {
  refuseCutTar(path);
  const { list } = await import('tar');
  const collector = new FileCollector();
  let failure: Error | undefined;
  // The entry being read: one still open when the file ends was cut short, whether or not the parser says so.
  let reading: string | undefined;
  try {
    list({
      file: path,
      sync: true,
      strict: true,
      onwarn: (code: string, message: string | Error) => {
        failure ??= new UnreadableBundle(path, `is not a readable tar (${code}: ${typeof message === 'string' ? message : message.message})`);
      },
      onReadEntry: (entry) => {
        if (failure !== undefined) return entry.resume();
        if (entry.type !== 'File' && entry.type !== 'OldFile') {
          if (entry.type !== 'Directory') collector.notRegular.push(entry.path);
          return entry.resume();
        }
        try {
          const file = collector.begin(entry.path.replace(/^\.\//, ''));
          reading = entry.path;
          entry.on('data', (chunk: Buffer) => {
            if (failure === undefined) file.push(chunk);
          });
          entry.on('end', () => {
            reading = undefined;
            if (failure === undefined) file.finish();
          });
        } catch (error) {
          failure = error instanceof Error ? error : new Error(String(error));
          entry.resume();
        }
      },
    });
  } catch (error) {
    throw new UnreadableBundle(path, `is not a readable tar (${(error as Error).message})`);
  }
  if (failure !== undefined) throw failure;
  if (reading !== undefined) throw new UnreadableBundle(path, `is cut short: ${reading} ends before its size`);
  return collector.done();
}

/** The size of a tar's block, and its end: two blocks of zeros. */
const TAR_BLOCK = 512;

/**
 * A tar ends with two zero blocks and is whole blocks long: one that does not was cut. The parser
 * alone does not always say so (a cut inside the last entry's header leaves it unread, unnamed).
 */
function refuseCutTar(path: string): void {
  const fd = openRegularFileSync(path);
  try {
    const { size } = fstatSync(fd);
    const end = Buffer.alloc(2 * TAR_BLOCK, 1);
    const read = size >= end.length ? readSync(fd, end, 0, end.length, size - end.length) : 0;
    if (size % TAR_BLOCK !== 0 || read !== end.length || end.some((byte) => byte !== 0))
      throw new UnreadableBundle(path, 'is not a whole tar: it does not end with the end-of-archive blocks (cut short, or not a tar)');
  } finally {
    closeSync(fd);
  }
}

function readDirectoryBundle(root: string): BundleReading {
  const collector = new FileCollector();
  const paths = walk(root, root, collector.notRegular);
  for (const path of [MANIFEST_PATH, ...paths.filter((path) => path !== MANIFEST_PATH)]) {
    if (path === MANIFEST_PATH && !paths.includes(MANIFEST_PATH)) continue;
    const file = collector.begin(path);
    readChunks(join(root, path), (chunk) => file.push(chunk));
    file.finish();
  }
  return collector.done();
}

/** Every regular file under a directory, relative and `/`-separated; anything else is named as not regular. */
function walk(root: string, directory: string, notRegular: string[]): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const at = join(directory, entry.name);
    if (entry.isDirectory()) found.push(...walk(root, at, notRegular));
    else if (entry.isFile()) found.push(relative(root, at).split('\\').join('/'));
    else notRegular.push(relative(root, at));
  }
  return found;
}

/** One file's bytes in bounded chunks, each handed over before the next is read into the same buffer. */
function readChunks(path: string, onChunk: (chunk: Buffer) => void): void {
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  let fd: number;
  try {
    fd = openRegularFileSync(path);
  } catch (error) {
    throw new UnreadableBundle(path, (error as Error).message);
  }
  try {
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) onChunk(buffer.subarray(0, read));
  } finally {
    closeSync(fd);
  }
}
