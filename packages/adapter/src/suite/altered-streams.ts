import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One named edit of a recorded stream's lines (rows 4 and 5 replay the result). */
export type LineAlteration = (lines: Buffer[]) => Buffer[];

/**
 * Writes `<name>.jsonl` into `directory` for each alteration of the recorded stream `recorded`
 * and returns the paths. Every altered stream ends with a line end, except those named in
 * `unterminated` (a stream that stopped mid-write).
 */
export async function writeAlteredStreams<Name extends string>(
  recorded: string,
  directory: string,
  alterations: Readonly<Record<Name, LineAlteration>>,
  unterminated: ReadonlySet<string> = new Set(),
): Promise<Record<Name, string>> {
  const lines = splitLines(await readFile(recorded));
  const paths = {} as Record<Name, string>;
  for (const [name, alter] of Object.entries(alterations) as Array<[Name, LineAlteration]>) {
    const path = join(directory, `${name}.jsonl`);
    const altered = alter(lines);
    const bytes = altered.flatMap((line, index) => (unterminated.has(name) && index === altered.length - 1 ? [line] : [line, Buffer.from('\n')]));
    await writeFile(path, Buffer.concat(bytes));
    paths[name] = path;
  }
  return paths;
}

function splitLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let index = bytes.indexOf(0x0a); index !== -1; index = bytes.indexOf(0x0a, start)) {
    if (index > start) lines.push(bytes.subarray(start, index));
    start = index + 1;
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}
