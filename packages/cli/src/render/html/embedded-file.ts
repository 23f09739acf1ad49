import { readKeptFile, type KeptFileReading } from '@statecraft/records';

/** How much of one kept file a page carries: a 1 GiB stream must not make a 1 GiB page. */
export const EMBED_BOUND = 4 * 1024 * 1024;

/**
 * One kept file as a page carries it: what the record holds of it (its digest and size), and the
 * bytes read now, whole or cut at the bound. The page's own script digests `bytes` again; a cut
 * file cannot be, and says so, with what this reading found of the whole file beside it.
 */
export interface EmbeddedFile {
  /** What the file is to the attempt: `stream`, `check 1 stdout`, `receipt`, ... */
  name: string;
  path: string;
  recorded: { sha256: string; bytes: number };
  reading: { kind: 'read'; bytes: Buffer; cut: boolean; size: number; sha256: string } | { kind: 'unreadable'; message: string };
}

/** Reads one kept file once (records' reader: bounded chunks, hashed whole), keeping at most `bound` bytes of it. */
export function embedKeptFile(name: string, file: { path: string; sha256: string; bytes: number }, bound: number = EMBED_BOUND): EmbeddedFile {
  const head = new EmbedHead(bound);
  return head.finish(
    name,
    file,
    readKeptFile(file.path, (chunk) => head.push(chunk), { lent: true }),
  );
}

/** The start of a kept file as it is read, by this module or by the pass that digests the stream (reviewer-evidence.ts). */
export class EmbedHead {
  private readonly kept: Buffer[] = [];
  private held = 0;

  constructor(private readonly bound: number) {}

  push(chunk: Buffer): void {
    if (this.held >= this.bound) return;
    // Copied: the chunk is only lent (readKeptFile reads the next one into it).
    const part = Buffer.from(chunk.subarray(0, this.bound - this.held));
    this.kept.push(part);
    this.held += part.length;
  }

  finish(name: string, file: { path: string; sha256: string; bytes: number }, reading: KeptFileReading): EmbeddedFile {
    const recorded = { sha256: file.sha256, bytes: file.bytes };
    if (reading.kind === 'unreadable') return { name, path: file.path, recorded, reading: { kind: 'unreadable', message: `${file.path} ${reading.why}` } };
    return {
      name,
      path: file.path,
      recorded,
      reading: { kind: 'read', bytes: Buffer.concat(this.kept), cut: reading.bytes > this.held, size: reading.bytes, sha256: reading.sha256 },
    };
  }
}
