import { readKeptFile } from '@statecraft/records';

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
  const kept: Buffer[] = [];
  let held = 0;
  const reading = readKeptFile(file.path, (chunk) => {
    if (held >= bound) return;
    const part = chunk.subarray(0, bound - held);
    kept.push(part);
    held += part.length;
  });
  const recorded = { sha256: file.sha256, bytes: file.bytes };
  if (reading.kind === 'unreadable') return { name, path: file.path, recorded, reading: { kind: 'unreadable', message: `${file.path} ${reading.why}` } };
  return {
    name,
    path: file.path,
    recorded,
    reading: { kind: 'read', bytes: Buffer.concat(kept), cut: reading.bytes > held, size: reading.bytes, sha256: reading.sha256 },
  };
}
