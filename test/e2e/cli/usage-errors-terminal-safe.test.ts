import { describe, expect, it } from 'vitest';
import { runStatecraft } from '../../fixtures/statecraft-cli.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

/**
 * commander's own usage errors quote the command line (an unknown option or command), which whoever
 * composes it can fill with escapes and line breaks: they go through the terminal-safe rendering as
 * every other untrusted string does (issue 29 item 6), so none can forge a line of statecraft's.
 */

// Control characters a terminal obeys, and the bidi controls (as in terminal-safe-text.ts).
// eslint-disable-next-line no-control-regex -- control characters are what must be absent
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const scratch = scratchDirectories();

describe("commander's usage errors, made safe for a terminal (issue 29 item 6)", () => {
  it.each([
    ['an unknown option', (forged: string) => [`--x${forged}`]],
    ['an unknown command', (forged: string) => [`bogus${forged}`]],
    ['an unknown option of a verb', (forged: string) => ['run', 'list', `--x${forged}`]],
    ['an unknown option commander suggests another for', (forged: string) => ['run', 'list', `--jsn${forged}`]],
  ])('%s holding ESC, CR, LF, NEL, U+2028 and U+202E prints none of them raw, exit 3', async (_label, argv) => {
    const home = await scratch.make('statecraft-usage-home');
    for (const forged of ['\u001b[2K\r\nacceptance: accepted\u202e', '\u0085acceptance: accepted', '\u2028acceptance: accepted', '\n(Did you mean \u001b[2K']) {
      const run = await runStatecraft(argv(forged), { home });
      expect(run.exitCode, run.stderr).toBe(3);
      expect(run.stderr).toMatch(/^statecraft: /);
      expect(run.stderr).not.toMatch(/^acceptance: accepted/m);
      expect(run.stderr).not.toMatch(UNSAFE);
      expect(run.stderr).toContain('next: see statecraft --help');
    }
  });

  it("keeps commander's suggestion on its own line", async () => {
    const run = await runStatecraft(['run', 'list', '--jsn'], { home: await scratch.make('statecraft-usage-home') });
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toMatch(/^statecraft: unknown option '--jsn'\n\(Did you mean --json\?\)\n/);
  });
});
