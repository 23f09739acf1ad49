import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProductHome, createSampleRepository, type SampleRepository } from './fixtures/sample-repository.js';
import { STATECRAFT_BIN } from './fixtures/statecraft-cli.js';

let repository: SampleRepository;
let home: { path: string; remove: () => Promise<void> };
beforeAll(async () => {
  repository = await createSampleRepository();
  home = await createProductHome();
});
afterAll(async () => {
  await repository.remove();
  await home.remove();
});

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** Runs statecraft under a pseudo-terminal (util-linux `script`), the way an operator sees it. */
async function runOnTerminal(...args: string[]) {
  const command = [process.execPath, STATECRAFT_BIN, ...args].map(quote).join(' ');
  const answer = await execa('script', ['-qec', command, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', STATECRAFT_HOME: home.path, TERM: 'xterm' },
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
  return { exitCode: answer.exitCode, output: String(answer.stdout) };
}

describe('live progress on a terminal (issue 3 item 9)', () => {
  it('a run on a terminal shows a live status line, then the final summary', async () => {
    const { exitCode, output } = await runOnTerminal('run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: refuse');
    expect(exitCode).toBe(1);
    expect(output).toContain('\r\u001b[2K');
    expect(output).toMatch(/attempt 1 · \d+s \/ 30m · \d+ events? · 1 tool use · 1 refusal · cost \$0\.0125/);
    expect(output).toContain('refused');
    expect(output).toContain('posture');
  });

  it('--json on a terminal prints one JSON document and no control sequence', async () => {
    const { output } = await runOnTerminal('run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json');
    expect(output).not.toContain('\u001b');
    expect(JSON.parse(output.replace(/\r\n/g, '\n'))).toMatchObject({ outcome: 'completed' });
  });
});
