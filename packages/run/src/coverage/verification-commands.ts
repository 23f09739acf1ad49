/**
 * The check commands of a spec (R9.2): the fenced code block(s) under its `## Verification`
 * heading, up to the next heading of level 1 or 2. Reading rules (decision 0004):
 * - the heading is an ATX level-2 heading whose text is `Verification` (any letter case);
 *   headings inside fenced blocks are code, not headings;
 * - fences are CommonMark's: three or more backquotes or tildes, indented at most three spaces,
 *   closed by the same character at least as many times; any info string (`sh`, `console` …);
 * - each non-blank line of a block is one command, trimmed; a line whose first character is
 *   `#` is a comment and is skipped;
 * - a line ending in a backslash continues onto the next line: the two are kept as one command
 *   holding a line break, which reads `unparsed` (a continued command is not read);
 * - an empty plan needs literally empty blocks (nothing but blank lines): a section with no
 *   block, or blocks holding only comments, refuses, because an empty plan must be deliberate.
 */

/** One command as written in the spec; `line` is where it starts (1-based), for messages only. */
interface VerificationCommand {
  text: string;
  line: number;
}

export type VerificationRefusalReason = 'no-verification-section' | 'several-verification-sections' | 'no-fenced-block' | 'unclosed-fence' | 'only-comments';

export type VerificationExtraction =
  { kind: 'extracted'; file: string; commands: VerificationCommand[] } | { kind: 'refused'; file: string; reason: VerificationRefusalReason; message: string };

interface Fence {
  marker: '`' | '~';
  length: number;
  openedAt: number;
}

const FENCE_OPENING = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;

export function extractVerificationCommands(specText: string, file: string): VerificationExtraction {
  const lines = specText.split(/\r?\n/);
  const sections: number[] = [];
  const blocks: { lines: { text: string; line: number }[] }[] = [];
  let inSection = false;
  let fence: Fence | null = null;

  for (const [index, line] of lines.entries()) {
    const lineNumber = index + 1;
    if (fence !== null) {
      if (closesFence(line, fence)) fence = null;
      else if (inSection) blocks.at(-1)?.lines.push({ text: line, line: lineNumber });
      continue;
    }
    const opening = readFenceOpening(line, lineNumber);
    if (opening !== null) {
      fence = opening;
      if (inSection) blocks.push({ lines: [] });
      continue;
    }
    const heading = readHeading(line);
    if (heading === null) continue;
    if (heading.level <= 2) inSection = false;
    if (heading.level === 2 && heading.text.toLowerCase() === 'verification') {
      sections.push(lineNumber);
      inSection = true;
    }
  }

  if (sections.length === 0) {
    return refuse(file, 'no-verification-section', 'has no "## Verification" section, so its checks cannot be read');
  }
  if (sections.length > 1) {
    return refuse(file, 'several-verification-sections', `has ${sections.length} "## Verification" sections (lines ${sections.join(', ')}); keep one`);
  }
  if (fence !== null && inSection) {
    return refuse(file, 'unclosed-fence', `has a code block opened at line ${fence.openedAt} that is never closed`);
  }
  if (blocks.length === 0) {
    return refuse(
      file,
      'no-fenced-block',
      'has a "## Verification" section with no fenced code block; write the commands in one (an empty block means no checks)',
    );
  }
  const blockLines = blocks.flatMap((block) => block.lines);
  const commands = joinCommands(blockLines);
  const literallyEmpty = blockLines.every((entry) => entry.text.trim() === '');
  if (commands.length === 0 && !literallyEmpty) {
    return refuse(file, 'only-comments', 'has a "## Verification" block holding only comments; an empty plan must be an empty block');
  }
  return { kind: 'extracted', file, commands };
}

/** Blank lines and `#` comments are skipped; a trailing backslash joins the next line. */
function joinCommands(blockLines: readonly { text: string; line: number }[]): VerificationCommand[] {
  const commands: VerificationCommand[] = [];
  let pending: VerificationCommand | null = null;
  for (const entry of blockLines) {
    if (pending !== null) {
      pending.text += `\n${entry.text.trim()}`;
    } else {
      const text = entry.text.trim();
      if (text === '' || text.startsWith('#')) continue;
      pending = { text, line: entry.line };
    }
    if (!pending.text.endsWith('\\')) {
      commands.push(pending);
      pending = null;
    }
  }
  if (pending !== null) commands.push(pending);
  return commands;
}

function readFenceOpening(line: string, lineNumber: number): Fence | null {
  const match = FENCE_OPENING.exec(line);
  const run = match?.[1];
  if (run === undefined) return null;
  const marker = run[0] === '`' ? '`' : '~';
  // CommonMark: a backquote fence's info string may not contain a backquote (that is inline code).
  if (marker === '`' && (match?.[2] ?? '').includes('`')) return null;
  return { marker, length: run.length, openedAt: lineNumber };
}

function closesFence(line: string, fence: Fence): boolean {
  const match = /^ {0,3}(`+|~+)[ \t]*$/.exec(line);
  const run = match?.[1];
  return run !== undefined && run[0] === fence.marker && run.length >= fence.length;
}

function readHeading(line: string): { level: number; text: string } | null {
  const match = ATX_HEADING.exec(line);
  const hashes = match?.[1];
  if (hashes === undefined) return null;
  // A closing sequence of `#`s is not part of the heading's text.
  const text = (match?.[2] ?? '').replace(/(^|[ \t]+)#+$/, '').trim();
  return { level: hashes.length, text };
}

function refuse(file: string, reason: VerificationRefusalReason, what: string): VerificationExtraction {
  return { kind: 'refused', file, reason, message: `${file}: the spec ${what}` };
}
