import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseTerminalJson, runStatecraftOnTerminal } from '../../fixtures/statecraft-cli.js';

const targets = useTestTargets();

/** Runs statecraft under a pseudo-terminal, the way an operator sees it. */
const runOnTerminal = (...args: string[]) => runStatecraftOnTerminal(args, { home: targets.home.path });

describe('live progress on a terminal (issue 3 item 9)', () => {
  it('a run on a terminal shows a live status line, then the final summary', async () => {
    const { exitCode, output } = await runOnTerminal('run', targets.repository.path, '--adapter', 'fixture', '--prompt', 'scenario: refuse');
    expect(exitCode).toBe(1);
    expect(output).toContain('\r\u001b[2K');
    expect(output).toMatch(/attempt 1 · \d+s \/ 30m · \d+ events? · 1 tool use · 1 refusal · cost \$0\.0125/);
    expect(output).toContain('refused');
    expect(output).toContain('posture');
  });

  it('--json on a terminal prints one JSON document and no control sequence', async () => {
    const ran = await runOnTerminal('run', targets.repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json');
    expect(ran.output).not.toContain('\u001b');
    expect(parseTerminalJson(ran)).toMatchObject({ outcome: 'completed' });
  });
});
