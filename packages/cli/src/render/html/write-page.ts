import { lstat, rename, rm, writeFile } from 'node:fs/promises';
import { IoFailure } from '../../errors.js';

/**
 * Writes the page to stdout (`-`), or to `path` whole: written beside it under a temporary name
 * and renamed over it, so a reader never opens half a page and a failed write leaves the old one.
 * The page is HTML every untrusted byte of which is escaped or base64 (reviewer-page.ts), so it
 * goes to stdout as it is, not through the terminal writer.
 */
export async function writeReviewerPage(html: Buffer, path: string): Promise<void> {
  if (path === '-') {
    process.stdout.write(html);
    return;
  }
  // A page replaces a page, never what else is there: renamed over a device, a directory's link or
  // a pipe, it would take that thing's place (as root, /dev/null itself).
  const there = await lstat(path).catch(() => undefined);
  if (there !== undefined && !there.isFile()) {
    throw new IoFailure(path, 'cannot write the page: something other than a file is there, and a page only ever replaces a file');
  }
  const temporary = `${path}.${String(process.pid)}.partial`;
  try {
    await writeFile(temporary, html, { mode: 0o644 });
    await rename(temporary, path);
  } catch (error) {
    // The failure is the page's, named by the path asked for: removing a file that was never made
    // (its directory a file, say) fails too, and must not take its place.
    await rm(temporary, { force: true }).catch(() => undefined);
    throw new IoFailure(path, `cannot write the page: ${(error as Error).message}`, error);
  }
}
