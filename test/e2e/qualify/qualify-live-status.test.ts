import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseTerminalJson, runStatecraft, runStatecraftOnTerminal } from '../../fixtures/statecraft-cli.js';

const targets = useTestTargets({ sharedRepository: false });

/** Runs statecraft under a pseudo-terminal, the way an operator sees it. */
const runOnTerminal = (...args: string[]) => runStatecraftOnTerminal(args, { home: targets.home.path });

const ROWS = [1, 2, 3, 4, 5, 6, 7, 8, 9];
/** The live line a case shows while it runs, and the line it commits when it ends (render/live-line.ts). */
const started = (row: number): string => `\r\u001b[2K  …        row ${row}  `;
const passed = (row: number): string => `\r\u001b[2K  pass     row ${row}  `;

describe('qualify shows each negative-suite case as it starts and ends on a terminal (issue 2 item 8, R11)', () => {
  it('on a terminal, each row 1..9 is shown while it runs, then committed as a pass, in order, before the final report', async () => {
    const { exitCode, output } = await runOnTerminal('qualify', '--fixture');
    expect(exitCode).toBe(0);
    let cursor = 0;
    for (const row of ROWS) {
      const start = output.indexOf(started(row), cursor);
      expect(start, `row ${row} shown as it starts`).toBeGreaterThanOrEqual(cursor);
      const end = output.indexOf(passed(row), start);
      expect(end, `row ${row} committed as a pass after it starts`).toBeGreaterThan(start);
      cursor = end;
    }
    const report = output.indexOf('qualified: every case passed', cursor);
    expect(report).toBeGreaterThan(cursor);
  });

  it('with stdout not a terminal, qualify prints the report and no ANSI escape sequence', async () => {
    const run = await runStatecraft(['qualify', '--fixture'], { home: targets.home.path });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).not.toContain('\u001b[');
    expect(run.stdout).not.toContain('…        row');
    for (const row of ROWS) expect(run.stdout).toContain(`pass     row ${row}  `);
    expect(run.stdout).toContain('qualified: every case passed');
  });

  it('--json on a terminal prints one JSON document and no control sequence', async () => {
    const ran = await runOnTerminal('qualify', '--fixture', '--json');
    expect(ran.exitCode).toBe(0);
    expect(ran.output).not.toContain('\u001b');
    const value = parseTerminalJson<{ passed: boolean; cases: { row: number; status: string }[] }>(ran);
    expect(value.passed).toBe(true);
    expect(value.cases.map((entry) => [entry.row, entry.status])).toEqual(ROWS.map((row) => [row, 'pass']));
  });
});
