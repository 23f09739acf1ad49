import { rename, rm, writeFile } from 'node:fs/promises';
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
  const temporary = `${path}.${String(process.pid)}.partial`;
  try {
    await writeFile(temporary, html, { mode: 0o644 });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new IoFailure(path, `cannot write the page: ${(error as Error).message}`, error);
  }
}
