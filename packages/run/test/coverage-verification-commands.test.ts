import { describe, expect, it } from 'vitest';
import { extractVerificationCommands } from '@statecraft/run';

// R9.2: the check commands are the fenced commands under the spec's `## Verification` heading.

const FILE = 'specs/004/spec.md';
const texts = (spec: string): string[] => {
  const extraction = extractVerificationCommands(spec, FILE);
  if (extraction.kind !== 'extracted') throw new Error(`expected commands, got: ${extraction.message}`);
  return extraction.commands.map((command) => command.text);
};

describe('extracting the Verification commands (R9.2)', () => {
  it('takes each non-blank line of the fenced block under "## Verification", trimmed', () => {
    const spec = ['# Spec 004', '', 'Prose.', '', '## Verification', '', '```sh', '  cargo test', '', 'make check  ', '```', ''].join('\n');
    expect(texts(spec)).toEqual(['cargo test', 'make check']);
  });

  it('records the line each command starts on', () => {
    const spec = ['## Verification', '```', 'cargo test', '```'].join('\n');
    expect(extractVerificationCommands(spec, FILE)).toEqual({
      kind: 'extracted',
      file: FILE,
      commands: [{ text: 'cargo test', line: 3 }],
    });
  });

  it('takes every fenced block of the section, and none after the next level-2 heading', () => {
    const spec = [
      '## Verification',
      '```',
      'cargo test',
      '```',
      'Then:',
      '~~~bash',
      'make lint',
      '~~~',
      '### Details',
      '```',
      'npm test',
      '```',
      '## Notes',
      '```',
      'rm -rf /',
      '```',
    ].join('\n');
    expect(texts(spec)).toEqual(['cargo test', 'make lint', 'npm test']);
  });

  it('ends the section at a level-1 heading too', () => {
    const spec = ['## Verification', '```', 'cargo test', '```', '# Appendix', '```', 'rm x', '```'].join('\n');
    expect(texts(spec)).toEqual(['cargo test']);
  });

  it('does not read a "#" line inside a fenced block as a heading', () => {
    const spec = ['## Verification', '```', '# run the tests', 'cargo test', '## not a heading', 'make', '```'].join('\n');
    expect(texts(spec)).toEqual(['cargo test', 'make']);
  });

  it('ignores a "## Verification" line inside a fenced block elsewhere', () => {
    const spec = ['## Example', '````md', '## Verification', '```', 'evil', '```', '````'].join('\n');
    expect(extractVerificationCommands(spec, FILE)).toMatchObject({ kind: 'refused', reason: 'no-verification-section' });
  });

  it('matches the heading in any letter case and with a closing sequence', () => {
    expect(texts(['## verification ##', '```', 'make', '```'].join('\n'))).toEqual(['make']);
    expect(texts(['  ## VERIFICATION', '```', 'make', '```'].join('\n'))).toEqual(['make']);
  });

  it('closes a fence only with the same character, at least as long', () => {
    const spec = ['## Verification', '````', 'make', '```', '~~~~', 'cargo test', '````'].join('\n');
    expect(texts(spec)).toEqual(['make', '```', '~~~~', 'cargo test']);
  });

  it('reads CRLF line endings', () => {
    expect(texts('## Verification\r\n```\r\ncargo test\r\n```\r\n')).toEqual(['cargo test']);
  });
});

describe('comments and continuations (R9.2, decision 0004)', () => {
  it('skips a line whose first character is "#"', () => {
    expect(texts(['## Verification', '```', '#!/bin/sh', '  # a comment', 'make', '```'].join('\n'))).toEqual(['make']);
  });

  it('keeps a line ending in a backslash together with the next, as one command holding a line break', () => {
    const spec = ['## Verification', '```', 'cargo test \\', '  --all', 'make', '```'].join('\n');
    expect(texts(spec)).toEqual(['cargo test \\\n--all', 'make']);
  });

  it('keeps a continuation left open at the end of the block as its own command', () => {
    expect(texts(['## Verification', '```', 'make \\', '```'].join('\n'))).toEqual(['make \\']);
  });
});

describe('refusals and the empty plan (R9.2)', () => {
  it('refuses a spec with no Verification section, naming the file', () => {
    const extraction = extractVerificationCommands('# Spec\n\n## Goals\n', FILE);
    expect(extraction).toMatchObject({ kind: 'refused', file: FILE, reason: 'no-verification-section' });
    expect(extraction).toMatchObject({ message: expect.stringContaining(FILE) as unknown });
  });

  it('does not take a level-3 "Verification" heading for the section', () => {
    expect(extractVerificationCommands('### Verification\n```\nmake\n```\n', FILE)).toMatchObject({
      kind: 'refused',
      reason: 'no-verification-section',
    });
  });

  it('refuses two Verification sections', () => {
    const spec = ['## Verification', '```', 'make', '```', '## Verification', '```', 'cargo', '```'].join('\n');
    expect(extractVerificationCommands(spec, FILE)).toMatchObject({ kind: 'refused', reason: 'several-verification-sections' });
  });

  it('refuses a section with prose but no fenced block, rather than reading an empty plan', () => {
    const spec = ['## Verification', '', 'Run cargo test.', '    cargo test', '## Next'].join('\n');
    expect(extractVerificationCommands(spec, FILE)).toMatchObject({ kind: 'refused', reason: 'no-fenced-block' });
  });

  it('refuses a block that is never closed', () => {
    expect(extractVerificationCommands('## Verification\n```\nmake\n', FILE)).toMatchObject({
      kind: 'refused',
      reason: 'unclosed-fence',
      message: expect.stringContaining('line 2') as unknown,
    });
  });

  it('reads a literally empty block as an empty plan', () => {
    expect(extractVerificationCommands('## Verification\n```\n```\n', FILE)).toEqual({ kind: 'extracted', file: FILE, commands: [] });
    expect(extractVerificationCommands('## Verification\n```\n\n   \n```\n', FILE)).toMatchObject({ kind: 'extracted', commands: [] });
  });

  it('refuses a block holding only comments, since an empty plan must be an empty block', () => {
    expect(extractVerificationCommands('## Verification\n```\n# later\n```\n', FILE)).toMatchObject({
      kind: 'refused',
      reason: 'only-comments',
    });
  });
});
