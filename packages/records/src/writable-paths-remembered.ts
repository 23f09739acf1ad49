import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { makeDirectories } from '@statecraft/adapter';
import * as z from 'zod';
import { syncDirectory, writeFileDurably } from './durable-write.js';
import { describeUnopenable, readRegularFile } from '@statecraft/adapter';
import { describeSchemaIssues } from '@statecraft/adapter';

/**
 * Every path an attempt's evidence boundary bound writable for its adapter's managed paths (R12),
 * remembered in the product home (its `writablePaths` directory, product-home.ts), one file each:
 * by `run`'s launches and by `qualify`'s, whose absolute managed paths are the machine's own. A repository an agent makes or changes there is
 * one whose git configuration statecraft's own git would obey, outside the sandbox, on a later run
 * — whichever adapter that run uses. The adapter's own declaration refuses such a target for that
 * adapter (packages/run's target-outside-managed-paths.ts); this keeps the refusal for every other adapter once the
 * path has been writable (a repository made under one adapter's managed path, run later with
 * another, would be checked out by statecraft's git, its filters run).
 */
const RememberedWritablePathSchema = z.strictObject({
  path: z.string().refine((path) => isAbsolute(path), 'an absolute path'),
  /** The adapter whose managed path it was, by its manifest's name. */
  adapter: z.string().min(1),
  /** When it was first bound writable (ISO 8601). */
  since: z.iso.datetime(),
});
export type RememberedWritablePath = z.infer<typeof RememberedWritablePathSchema>;

/** A remembered path is one short line of JSON: a larger file is not one. */
const REMEMBERED_PATH_BYTES = 16 * 1024;

/**
 * Remembers each path, before it is bound and before the adapter can run (the launch's gate is shut
 * until the intent): a path already remembered is left as it is (its first adapter and time kept),
 * so a launch over paths seen before writes nothing. Each file is written once, exclusively: two
 * launches racing over one path leave one file. Throws, naming the file, when one cannot be written:
 * nothing is spawned, and the launch fails (exit 4) as any write into the home that fails does.
 */
export async function rememberWritablePaths(directory: string, adapter: string, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  for (const path of paths) {
    const file = join(directory, `${createHash('sha256').update(path).digest('hex')}.json`);
    if (existsSync(file)) continue;
    const remembered: RememberedWritablePath = { path, adapter, since: new Date().toISOString() };
    try {
      if (!existsSync(directory)) {
        makeDirectories(directory, 0o700);
        // The directory's own entry, durable as its files are: a crash must not forget them all.
        await syncDirectory(dirname(directory));
      }
      await writeFileDurably(file, `${JSON.stringify(remembered)}\n`, { exclusive: true });
    } catch (error) {
      // Another launch remembered it first: the same path, kept with its first adapter.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw new Error(`cannot remember ${path} as bound writable in ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, {
        cause: error,
      });
    }
  }
}

export type RememberedWritablePaths =
  | { kind: 'read'; paths: RememberedWritablePath[] }
  /** A file there that is not a remembered path: statecraft cannot tell what it would have protected. */
  | { kind: 'unreadable'; file: string; message: string };

/** Every remembered path in `directory`; none when it was never made. */
export async function readRememberedWritablePaths(directory: string): Promise<RememberedWritablePaths> {
  const unreadable = (why: string): RememberedWritablePaths => ({ kind: 'unreadable', file: directory, message: `${directory} ${why}` });
  let names: string[];
  try {
    // Looked at itself first: a link there (dangling, or to anything) is no memory statecraft made.
    if (!lstatSync(directory).isDirectory()) return unreadable('is not a directory (a link, or a file): statecraft makes it a directory');
    names = readdirSync(directory);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Never made; or a product home that is not a directory, the home's fault, which the first write
    // into it reports (exit 4, naming it).
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'read', paths: [] };
    return unreadable(`cannot be read (${code ?? (error as Error).message})`);
  }
  const paths: RememberedWritablePath[] = [];
  for (const name of names.sort()) {
    // A write that stopped before its rename leaves only its temporary: nothing was remembered by it.
    if (name.startsWith('.') && name.endsWith('.tmp')) continue;
    const file = join(directory, name);
    let text: string;
    try {
      text = await readRegularFile(file, REMEMBERED_PATH_BYTES);
    } catch (error) {
      return { kind: 'unreadable', file, message: `${file} ${describeUnopenable(error)}` };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { kind: 'unreadable', file, message: `${file} is not JSON` };
    }
    const parsed = RememberedWritablePathSchema.safeParse(json);
    if (!parsed.success) return { kind: 'unreadable', file, message: describeSchemaIssues(file, parsed.error) };
    paths.push(parsed.data);
  }
  return { kind: 'read', paths };
}
