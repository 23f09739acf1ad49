import { readSync } from 'node:fs';

const BLOCK = 512;
/** The most of a pax header read: export writes one only for a path, which a bundle holds to 512 bytes. */
const PAX_BOUND = 64 * 1024;

/**
 * The type flags node-tar hands over as a member (each then a file of the bundle, or a finding that
 * it is not a regular one); the pax header is read below. Any other header node-tar either skips
 * unseen (a type flag it does not know) or folds into the next member (GNU long names, global and
 * Solaris headers), where GNU tar and bsdtar read it otherwise: an unknown type flag, or `N`, is
 * extracted by them as a regular file. A bundle's tar is export's, which writes none of them.
 */
const MEMBER_FLAGS = new Set(['0', '\0', '1', '2', '3', '4', '5', '6', '7', 'D']);

/**
 * Walks a tar's headers, as export writes them (ustar, and a pax header carrying a path), without
 * reading the members' bytes: the first header another reader of the same tar would read as other
 * than the verifier does, naming it; or undefined. Past the end-of-archive block every byte is zero:
 * what follows it is read by some tars (`-i`, node-tar after one zero block) and not by others.
 */
export function strayHeader(fd: number): { path: string; why: string } | undefined {
  const block = Buffer.alloc(BLOCK);
  let at = 0;
  let ended = false;
  for (;;) {
    const read = readSync(fd, block, 0, BLOCK, at);
    if (read === 0) return undefined;
    const where = `tar block at byte ${String(at)}`;
    if (read < BLOCK) return { path: where, why: 'is cut short' };
    const zero = block.every((byte) => byte === 0);
    if (ended || zero) {
      if (!zero) return { path: where, why: 'follows the end-of-archive block: some tars read it, others do not' };
      ended = true;
      at += BLOCK;
      continue;
    }
    const name = nameOf(block);
    const flag = String.fromCharCode(block[156] ?? 0);
    const size = sizeOf(block);
    if (size === undefined) return { path: name, why: `its tar header's size is not in the octal form export writes (${where})` };
    if (flag === 'x') {
      const why = paxProblem(fd, at + BLOCK, size);
      if (why !== undefined) return { path: name, why: `${why} (${where})` };
    } else if (!MEMBER_FLAGS.has(flag))
      return {
        path: name,
        why: `is a tar header of type ${JSON.stringify(flag)}, which export never writes and other tars read otherwise than statecraft (${where})`,
      };
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
}

function nameOf(block: Buffer): string {
  const field = (from: number, length: number): string => block.toString('utf8', from, from + length).replace(/\0.*$/s, '');
  const prefix = field(345, 155);
  const name = field(0, 100);
  return prefix === '' ? name : `${prefix}/${name}`;
}

/** The header's size: 11 octal digits, as export writes it; undefined for any other form (base-256, a pax size). */
function sizeOf(block: Buffer): number | undefined {
  const field = block
    .toString('latin1', 124, 136)
    .replace(/[\0 ]+$/, '')
    .replace(/^ +/, '');
  if (!/^[0-7]{1,12}$/.test(field)) return field === '' ? 0 : undefined;
  return parseInt(field, 8);
}

/** A pax header holds `path` records only, as export writes it: any other key (a size, a link) is read by tars that honour it and not by one that does not. */
function paxProblem(fd: number, at: number, size: number): string | undefined {
  if (size > PAX_BOUND) return `is a pax header of ${String(size)} bytes, more than export writes`;
  const body = Buffer.alloc(size);
  if (readSync(fd, body, 0, size, at) !== size) return 'is a pax header cut short';
  let offset = 0;
  while (offset < body.length) {
    const space = body.indexOf(0x20, offset);
    const length = space < 0 ? NaN : Number(body.toString('latin1', offset, space));
    if (!Number.isInteger(length) || length <= 0 || offset + length > body.length) return 'is a pax header whose records are malformed';
    const record = body.toString('utf8', space + 1, offset + length);
    const key = record.slice(0, record.indexOf('='));
    if (key !== 'path') return `is a pax header with a ${JSON.stringify(key)} record: export writes only a path`;
    offset += length;
  }
  return undefined;
}
