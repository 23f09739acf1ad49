import { createHash, type Hash } from 'node:crypto';
import { closeSync, fstatSync, lstatSync, readdirSync, readSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DEFAULT_MAX_LINE_BYTES, EventStreamReader, openRegularFileSync } from '@statecraft/adapter';
import { strayHeader } from './tar-headers.js';
import { BundleManifestSchema, manifestBytes, MANIFEST_PATH, MANIFEST_SIGNATURE_PATH, type BundleManifest, type BundleRole } from './bundle-manifest.js';
import { parseBoundedJson } from '../bounded-json.js';

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
/**
 * The most of a document parsed whole (JSON) that statecraft writes far smaller than HELD_BYTES:
 * parsed, JSON costs ten times its bytes in memory, so a manifest or a signature the size of a
 * chain's record would cost the verifier hundreds of MB. A run's manifest lists a few files per
 * attempt and check (150 bytes each); a Sigstore bundle or a receipt is a few kB; a key, less.
 */
const DOCUMENT_BYTES: Partial<Record<BundleRole | 'manifest' | 'manifest-signature', number>> = {
  manifest: 4 * 1024 * 1024,
  'manifest-signature': 1024 * 1024,
  receipt: 1024 * 1024,
  'receipt-signature': 1024 * 1024,
  'qualification-signature': 1024 * 1024,
  'public-key': 64 * 1024,
};
/**
 * The most the reading keeps of the whole bundle, whatever its manifest lists: held files, git
 * bundle heads and stream readers together. Past it a file is still digested, but not kept, and
 * that is a finding: a bundle of many files each under the per-file bound must not add up.
 */
const KEPT_BUDGET_BYTES = HELD_BYTES + HELD_BYTES / 2;
/** What one stream reader may keep at once: a partial line, the init and terminal events, a malformed line's evidence. */
const STREAM_READER_BYTES = 4 * (DEFAULT_MAX_LINE_BYTES + 1);
/** The most names of files not regular, or not in the manifest, the reading keeps: the rest are counted. */
const NAMED_BOUND = 100;

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
      /** Entries that are not regular files (the first NAMED_BOUND), and how many there were in all. */
      notRegular: string[];
      notRegularCount: number;
      /** Files the manifest does not list (the first NAMED_BOUND), and how many there were in all: digested by nobody. */
      unlisted: string[];
      unlistedCount: number;
      /** Files of a held role (or a stream, a git bundle) that the reading did not keep: past their bound, or the bundle's. */
      notKept: { path: string; why: string }[];
      /** In a tar, the first header that export never writes and node-tar would not hand over as a member (tar-headers.ts). */
      strayMembers: { path: string; why: string }[];
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
  notRegularCount = 0;
  readonly unlisted: string[] = [];
  unlistedCount = 0;
  readonly notKept: { path: string; why: string }[] = [];
  readonly strayMembers: { path: string; why: string }[] = [];
  /** What is left of KEPT_BUDGET_BYTES. */
  private budget = KEPT_BUDGET_BYTES;
  private listing: Map<string, { role: BundleRole; bytes: number }> | undefined;

  /** The manifest's files by path (the first of a path listed twice, itself a finding). */
  private listed(): Map<string, { role: BundleRole; bytes: number }> {
    if (this.listing === undefined) {
      this.listing = new Map();
      for (const file of this.manifest?.files ?? []) if (!this.listing.has(file.path)) this.listing.set(file.path, { role: file.role, bytes: file.bytes });
    }
    return this.listing;
  }

  /** For a directory's file: the size the manifest lists it at, or `unlisted` (it is then only named). */
  listedBytes(path: string): number | 'unlisted' {
    return this.listed().get(path)?.bytes ?? 'unlisted';
  }

  /** A listed file left unread: a finding, and not also one that it is missing. */
  skip(path: string, why: string): void {
    this.notKept.push({ path, why });
    this.skipped.add(path);
  }

  readonly skipped = new Set<string>();

  /** An entry that is not a regular file: named (up to the bound) and counted. */
  notRegularEntry(path: string): void {
    this.notRegularCount += 1;
    if (this.notRegular.length < NAMED_BOUND) this.notRegular.push(path);
  }

  /** Takes `bytes` of the budget, or says there is not room. */
  private take(bytes: number): boolean {
    if (bytes > this.budget) return false;
    this.budget -= bytes;
    return true;
  }

  /** Starts one file: what its chunks go to, and what to call at its end. */
  begin(path: string): { push: (chunk: Buffer) => void; finish: () => void } {
    if (path === MANIFEST_PATH) return this.beginManifest();
    if (path === MANIFEST_SIGNATURE_PATH) return this.beginSignature();
    if (this.manifest === undefined) throw new UnreadableBundle(MANIFEST_PATH, `is not the bundle's first file (${path} comes before it)`);
    if (this.files.has(path)) throw new UnreadableBundle(path, 'appears twice in the bundle');
    const role = this.listed().get(path)?.role;
    if (role === undefined) {
      // Not read: it is a finding whatever it holds, and a bundle of many such must not add up.
      this.unlistedCount += 1;
      if (this.unlisted.length < NAMED_BOUND) this.unlisted.push(path);
      return { push: () => undefined, finish: () => undefined };
    }
    const hash: Hash = createHash('sha256');
    let held: Buffer[] | undefined = HELD_ROLES.has(role) ? [] : undefined;
    let reader = role === 'stream' ? new EventStreamReader() : undefined;
    if (reader !== undefined && !this.take(STREAM_READER_BYTES)) {
      reader = undefined;
      this.notKept.push({ path, why: 'was not read as a stream: the bundle holds more than a verifier reads in bounded memory' });
    }
    const headBound = role === 'git-bundle' && this.take(GIT_BUNDLE_HEAD_BYTES) ? GIT_BUNDLE_HEAD_BYTES : 0;
    if (role === 'git-bundle' && headBound === 0)
      this.notKept.push({ path, why: 'its header was not read: the bundle holds more than a verifier reads in bounded memory' });
    const head: Buffer[] | undefined = headBound > 0 ? [] : undefined;
    let bytes = 0;
    let heldBytes = 0;
    const bound = DOCUMENT_BYTES[role] ?? HELD_BYTES;
    return {
      push: (chunk) => {
        hash.update(chunk);
        bytes += chunk.length;
        if (held !== undefined) {
          if (bytes > bound || !this.take(chunk.length)) {
            this.notKept.push({
              path,
              why:
                bytes > bound
                  ? `is larger than any such file statecraft writes (over ${bound} bytes): it was not read`
                  : 'was not read: the bundle holds more than a verifier reads in bounded memory',
            });
            this.budget += heldBytes;
            held = undefined;
          } else {
            held.push(Buffer.from(chunk));
            heldBytes += chunk.length;
          }
        }
        if (head !== undefined && bytes - chunk.length < headBound) head.push(Buffer.from(chunk.subarray(0, headBound - (bytes - chunk.length))));
        reader?.push(chunk);
      },
      finish: () => {
        if (this.skipped.has(path)) return;
        const content = held === undefined ? undefined : Buffer.concat(held);
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
        if (bytes > (DOCUMENT_BYTES['manifest-signature'] ?? HELD_BYTES)) throw new UnreadableBundle(MANIFEST_SIGNATURE_PATH, 'is larger than any signature');
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
        if (bytes > (DOCUMENT_BYTES.manifest ?? HELD_BYTES)) throw new UnreadableBundle(MANIFEST_PATH, 'is larger than any manifest statecraft writes');
        chunks.push(Buffer.from(chunk));
      },
      finish: () => {
        const text = Buffer.concat(chunks);
        let json: unknown;
        try {
          json = parseBoundedJson(text.toString('utf8'));
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
      notRegularCount: this.notRegularCount,
      unlisted: this.unlisted,
      unlistedCount: this.unlistedCount,
      notKept: this.notKept,
      strayMembers: this.strayMembers,
    };
  }
}

async function readTarBundle(path: string): Promise<BundleReading> {
  refuseCutTar(path);
  refuseCompressed(path);
  const { Parser } = await import('tar');
  const collector = new FileCollector();
  let failure: Error | undefined;
  // The entry being read: one still open when the file ends was cut short, whether or not the parser says so.
  let reading: string | undefined;
  const fail = (error: Error): void => {
    failure ??= new UnreadableBundle(path, `is not a readable tar (${error.message})`);
  };
  const parser = new Parser({
    strict: true,
    // Never decompressed: a bundle is read 1:1 with its bytes (refuseCompressed says why).
    brotli: false,
    zstd: false,
    onwarn: (code: string, message: string | Error) => {
      failure ??= new UnreadableBundle(path, `is not a readable tar (${code}: ${typeof message === 'string' ? message : message.message})`);
    },
    onReadEntry: (entry) => {
      if (failure !== undefined) return entry.resume();
      if (entry.type !== 'File' && entry.type !== 'OldFile') {
        if (entry.type !== 'Directory') collector.notRegularEntry(entry.path);
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
  parser.on('error', fail);
  const fd = openRegularFileSync(path);
  try {
    const stray = strayHeader(fd);
    if (stray !== undefined) collector.strayMembers.push(stray);
    for (;;) {
      // A fresh buffer each time: the parser may hold on to part of one it was given.
      const chunk = Buffer.allocUnsafe(TAR_READ_BYTES);
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      parser.write(chunk.subarray(0, read));
    }
    parser.end();
  } catch (error) {
    throw new UnreadableBundle(path, `is not a readable tar (${(error as Error).message})`);
  } finally {
    closeSync(fd);
  }
  if (failure !== undefined) throw failure;
  if (reading !== undefined) throw new UnreadableBundle(path, `is cut short: ${reading} ends before its size`);
  return collector.done();
}

/** How much of a tar is read at once. */
const TAR_READ_BYTES = 1024 * 1024;

/** The first bytes of a gzip stream, which node-tar inflates whatever the options (up to 1000 bytes read for each one given). */
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

/**
 * Export writes a plain tar, read 1:1 with its bytes. A compressed one is not a bundle export
 * writes, and reading it would read up to a thousand times its size: refused from its first
 * bytes, which must be a ustar header (magic, and a checksum that holds), and not gzip's.
 */
function refuseCompressed(path: string): void {
  const fd = openRegularFileSync(path);
  try {
    const first = Buffer.alloc(TAR_BLOCK);
    const read = readSync(fd, first, 0, TAR_BLOCK, 0);
    const notTar = (why: string): UnreadableBundle =>
      new UnreadableBundle(path, `is not the plain tar export writes (${why}): a compressed or other archive is not read`);
    if (first.subarray(0, GZIP_MAGIC.length).equals(GZIP_MAGIC)) throw notTar('it starts as a gzip stream: compressed');
    if (read < TAR_BLOCK || first.toString('latin1', 257, 262) !== 'ustar') throw notTar('its first block is not a ustar header: compressed, or not a tar');
    const recorded = parseInt(
      first
        .toString('latin1', 148, 156)
        .replace(/[\0 ]+$/, '')
        .trim(),
      8,
    );
    let sum = 0;
    for (let index = 0; index < TAR_BLOCK; index += 1) sum += index >= 148 && index < 156 ? 0x20 : (first[index] ?? 0);
    if (recorded !== sum) throw notTar("its first header's checksum does not hold");
  } finally {
    closeSync(fd);
  }
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
  const paths = walk(root, root, (path) => collector.notRegularEntry(path));
  for (const path of [MANIFEST_PATH, ...paths.filter((path) => path !== MANIFEST_PATH)]) {
    if (path === MANIFEST_PATH && !paths.includes(MANIFEST_PATH)) continue;
    // A directory's file costs its maker nothing to make long (a sparse file of a terabyte): only
    // what the manifest lists is read, and only at the size it lists; the rest is a finding unread.
    const listed = path === MANIFEST_PATH || path === MANIFEST_SIGNATURE_PATH ? undefined : collector.listedBytes(path);
    const file = collector.begin(path);
    if (listed === 'unlisted') continue;
    readChunks(
      join(root, path),
      (chunk) => file.push(chunk),
      listed,
      (size) => collector.skip(path, `is ${String(size)} bytes, not the ${String(listed)} its manifest lists: not read`),
    );
    file.finish();
  }
  return collector.done();
}

/** Every regular file under a directory, relative and `/`-separated; anything else is named as not regular. */
function walk(root: string, directory: string, notRegular: (path: string) => void): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const at = join(directory, entry.name);
    if (entry.isDirectory()) found.push(...walk(root, at, notRegular));
    else if (entry.isFile()) found.push(relative(root, at).split('\\').join('/'));
    else notRegular(relative(root, at));
  }
  return found;
}

/**
 * One file's bytes in bounded chunks, each handed over before the next is read into the same
 * buffer; with `expected`, a file of another size is not read at all (`otherSize` is told its size).
 */
function readChunks(path: string, onChunk: (chunk: Buffer) => void, expected?: number, otherSize?: (size: number) => void): void {
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  let fd: number;
  try {
    fd = openRegularFileSync(path);
  } catch (error) {
    throw new UnreadableBundle(path, (error as Error).message);
  }
  try {
    const { size } = fstatSync(fd);
    if (expected !== undefined && size !== expected) {
      otherSize?.(size);
      return;
    }
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) onChunk(buffer.subarray(0, read));
  } finally {
    closeSync(fd);
  }
}
