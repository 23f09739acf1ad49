import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft, runStatecraftOnTerminal, type CliRun } from '../../fixtures/statecraft-cli.js';

const targets = useTestTargets();
const CHECK = 'grep -qx forty-two answer.txt';
// eslint-disable-next-line no-control-regex
const COLOR = /\u001b\[3\dm/;

/** A summary an operator reads at a glance: at most 14 lines, none wider than 80 columns, no escape of any kind. */
function expectShort(ran: CliRun): string[] {
  const lines = ran.stdout.trimEnd().split('\n');
  expect(lines.length, ran.stdout).toBeLessThanOrEqual(14);
  for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
  // A value broken over rows reads as its words: no space doubled where a row was cut.
  for (const line of lines) expect(line.slice(17), line).not.toMatch(/\S {2}\S/);
  expect(ran.stdout).not.toContain('\u001b');
  // No requirement numbers or internal words in what a person reads.
  expect(ran.stdout).not.toMatch(/\bR\d+(\.\d+)?\b|claims nothing|fsync/);
  return lines;
}

async function runAndShow(repository: { path: string }, args: string[]) {
  const ran = await runStatecraft(['run', repository.path, '--adapter', 'fixture', ...args], { home: targets.home.path });
  const runId = /^run (\S+) attempt 1:/.exec(ran.stdout)?.[1];
  expect(runId, ran.stdout + ran.stderr).toBeDefined();
  const shown = await runStatecraft(['run', 'show', repository.path, runId!], { home: targets.home.path });
  return { ran, runId: runId!, shown };
}

describe('run, accept and run show answer in short; the details are asked for (issue 30)', () => {
  it("the README's first runs: outcome, claim, message, refusals, changes, verdict and where to look next", async () => {
    const repository = await targets.fresh();
    const refused = await runAndShow(repository, ['--prompt', 'scenario: refuse']);
    expect(refused.ran.exitCode).toBe(1);
    for (const output of [refused.ran, refused.shown]) {
      const lines = expectShort(output);
      expect(lines[0]).toBe(`run ${refused.runId} attempt 1: refused`);
      expect(output.stdout).toMatch(/^ {2}agent's claim +success/m);
      expect(output.stdout).toMatch(/^ {2}said +I could not push; everything else is done$/m);
      expect(output.stdout).toContain('Bash: {"tool":"Bash","input":{"command":"git');
      expect(output.stdout).toContain('"rule":"deny Bash(git push:*)"}');
      expect(output.stdout).toMatch(/^ {2}took +\d+\.\d s, \$0\.0125, 2 turns$/m);
      expect(output.stdout).toContain(`statecraft run show ${repository.path} \\\n      ${refused.runId} --posture`);
      expect(output.stdout).not.toMatch(/^posture$|residuals|coverage/m);
    }
    const json = parseJson<{ finalMessage: { text: string } }>(
      await runStatecraft(['run', 'show', repository.path, refused.runId, '--json'], { home: targets.home.path }),
    );
    expect(json.finalMessage.text).toBe('I could not push; everything else is done');

    const completed = await runAndShow(repository, ['--prompt', 'scenario: complete']);
    expect(completed.ran.exitCode).toBe(0);
    for (const output of [completed.ran, completed.shown]) {
      expect(expectShort(output)[0]).toBe(`run ${completed.runId} attempt 1: completed`);
      expect(output.stdout).toMatch(/^ {2}changed +nothing$/m);
      expect(output.stdout).toContain(`statecraft accept ${repository.path} \\\n      ${completed.runId}`);
    }

    // Posture, residuals and coverage: on request, and --verbose is the same.
    for (const flag of ['--posture', '--verbose']) {
      const posture = await runStatecraft(['run', 'show', repository.path, refused.runId, flag], { home: targets.home.path });
      expect(posture.stdout).toMatch(/^posture$/m);
      expect(posture.stdout).toMatch(/^ {2}residuals$/m);
      expect(posture.stdout).toMatch(/^ {2}coverage: not-applicable/m);
      expect(posture.stdout).toMatch(/^ {2}boundary {8}bubblewrap/m);
    }
  });

  it('a verdict too long for its two rows is cut at the end of its second, its words whole before the cut', async () => {
    const repository = await repositoryWithSuite(targets, { checks: [CHECK] });
    const { ran, shown } = await runAndShow(repository, ['--accept', '--prompt', 'scenario: complete']);
    for (const output of [ran, shown]) {
      const lines = expectShort(output);
      const at = lines.findIndex((line) => line.startsWith('  acceptance     not-attempted — the attempt changed nothing since it started:'));
      expect(at, output.stdout).toBeGreaterThan(0);
      expect(lines[at + 1]).toMatch(/^ {17}its candidate [0-9a-f]{12} is the base commit; only what an a\S*…$/);
    }
  });

  it('run --accept passing and failing, and accept, say the verdict and the files changed', async () => {
    const repository = await repositoryWithSuite(targets, { checks: [CHECK] });
    const passing = await runAndShow(repository, ['--accept', '--prompt', writePrompt('write', 'answer.txt', 'forty-two')]);
    expect(passing.ran.exitCode).toBe(0);
    for (const output of [passing.ran, passing.shown]) {
      expectShort(output);
      expect(output.stdout).toMatch(/^ {2}changed +answer\.txt$/m);
      expect(output.stdout).toMatch(/^ {2}acceptance +accepted — every check exited 0/m);
    }
    const failing = await runAndShow(repository, ['--accept', '--prompt', writePrompt('write', 'answer.txt', 'forty-one')]);
    expect(failing.ran.exitCode).toBe(1);
    for (const output of [failing.ran, failing.shown]) {
      expect(expectShort(output)[0]).toBe(`run ${failing.runId} attempt 1: failed by its checks (ran: completed)`);
      expect(output.stdout).toMatch(/^ {2}agent's claim +success/m);
      expect(output.stdout).toContain(`acceptance     failed — \`${CHECK}\` exited 1`);
    }

    const unjudged = await runStatecraft(
      ['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', 'forty-one'), '--json'],
      {
        home: targets.home.path,
      },
    );
    const { runId } = parseJson<{ runId: string }>(unjudged);
    const accepted = await runStatecraft(['accept', repository.path, runId], { home: targets.home.path });
    expect(accepted.exitCode).toBe(1);
    const lines = expectShort(accepted);
    expect(lines[0]).toBe(`acceptance of run ${runId} attempt 1: failed (check-failed)`);
    expect(accepted.stdout).toMatch(/^ {2}changed +answer\.txt$/m);
    expect(accepted.stdout).toMatch(/^ {2}checks +0 of 1 passed$/m);
    expect(accepted.stdout).toContain(`statecraft run show ${repository.path} \\\n      ${runId} --posture`);
  });

  it('colors the verdict on a terminal, never under NO_COLOR or into a pipe', async () => {
    const repository = await targets.fresh();
    const onTerminal = await runStatecraftOnTerminal(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: refuse'], {
      home: targets.home.path,
    });
    expect(onTerminal.output).toContain('\u001b[31mrefused\u001b[39m');
    const completed = await runStatecraftOnTerminal(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete'], {
      home: targets.home.path,
    });
    expect(completed.output).toContain('\u001b[32mcompleted\u001b[39m');
    const runId = /run (\S+) attempt 1:/.exec(completed.output)?.[1];
    const uncolored = await runStatecraftOnTerminal(['run', 'show', repository.path, runId!], { home: targets.home.path, env: { NO_COLOR: '1' } });
    expect(uncolored.output).toMatch(/attempt 1: completed/);
    expect(uncolored.output).not.toMatch(COLOR);
    const piped = await runStatecraft(['run', 'show', repository.path, runId!], { home: targets.home.path });
    expect(piped.stdout).toMatch(/attempt 1: completed/);
    expect(piped.stdout).not.toContain('\u001b');
  });
});
