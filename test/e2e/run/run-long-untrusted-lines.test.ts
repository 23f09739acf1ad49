import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// `run` and `run show` cut or wrap an adapter's words to the 80 columns
// a terminal line holds (provider-error-shown.test.ts holds them to it), so no value can run on
// into a row of its own. `run show --posture` printed the adapter's claim whole on one line, and
// `run diff` each path the agent named whole: padded with spaces to the edge of an 80-column
// terminal, the rest of the value showed as a row of its own, flush where statecraft's own rows
// start — here `  acceptance     accepted …`, on an attempt nobody judged. (The patch `run diff`
// prints after its rows is the agent's text, line for line as git writes it.)

const targets = useTestTargets();
const scratch = scratchDirectories();

const FORGED = 'acceptance     accepted — every check exited 0 (1), HEAD unchanged, tree clean';
/** A value that, after `prefix`, fills an 80-column row, then shows FORGED at column 2 of the next. */
function padded(prefix: number): string {
  return `ok${' '.repeat(80 - prefix - 2)}  ${FORGED}${' '.repeat(80 - 2 - FORGED.length)}`;
}

describe("an adapter's long words cannot start a row of their own in a terminal", () => {
  it('run show --posture and run diff hold every line carrying an untrusted value to 80 columns, as run and run show do', async () => {
    const fileName = `f${' '.repeat(60)}${'x'.repeat(100)}`;
    const adapter = await createScriptedAdapter(
      'long-words',
      [
        'init();',
        `require('node:fs').writeFileSync(${JSON.stringify(fileName)}, 'x\\n');`,
        `emit({ type: 'result', terminal: 'completed', claim: { status: ${JSON.stringify(padded('  provider claim  '.length))}, isError: false, reason: 'completed', detail: {} }, turns: 1 });`,
      ].join('\n'),
    );
    scratch.keep(adapter);
    const repository = targets.repository;
    const run = await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--prompt', 'hello', '--json'], { home: targets.home.path });
    expect(run.exitCode, run.stderr).toBe(0);
    const { runId } = parseJson<{ runId: string }>(run);

    const show = await runStatecraft(['run', 'show', repository.path, runId], { home: targets.home.path });
    const posture = await runStatecraft(['run', 'show', repository.path, runId, '--posture'], { home: targets.home.path });
    const diff = await runStatecraft(['run', 'diff', repository.path, runId], { home: targets.home.path });
    for (const [verb, answer, holding] of [
      ['run show', show, 'ok   '],
      ['run show --posture', posture, 'ok   '],
      ['run diff', diff, 'xxxxx'],
    ] as const) {
      // run diff's patch, after its rows and a blank line, is the agent's text line for line, as git writes it.
      const rows = verb === 'run diff' ? answer.stdout.split('\n\n')[0]! : answer.stdout;
      const long = rows.split('\n').filter((line) => line.includes(holding) && line.length > 80);
      expect(
        long.map((line) => `${String(line.length)} columns: ${line.slice(0, 40)}…`),
        `${verb} printed an untrusted value past 80 columns`,
      ).toEqual([]);
    }
  });

  it('measures wide characters as the two columns a terminal gives them: a claim or a file name of East Asian characters runs on past no edge', async () => {
    // Each of these characters takes two columns: 38 of them and the claim's row is full, so what follows would start a row.
    const wide = '\u6771'.repeat(38);
    const adapter = await createScriptedAdapter(
      'wide-words',
      [
        'init();',
        `require('node:fs').writeFileSync(${JSON.stringify(`${wide}${wide}.txt`)}, 'x\\n');`,
        `emit({ type: 'result', terminal: 'completed', claim: { status: ${JSON.stringify(`${wide}  ${FORGED}`)}, isError: false, reason: 'completed', detail: {} }, turns: 1 });`,
      ].join('\n'),
    );
    scratch.keep(adapter);
    const repository = targets.repository;
    const run = await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--prompt', 'hello', '--json'], { home: targets.home.path });
    expect(run.exitCode, run.stderr).toBe(0);
    const { runId } = parseJson<{ runId: string }>(run);
    const columns = (line: string): number => [...line].reduce((sum, character) => sum + (character === '\u6771' ? 2 : 1), 0);
    for (const words of [
      ['run', 'show'],
      ['run', 'show', '--posture'],
      ['run', 'diff'],
    ]) {
      const answer = await runStatecraft([...words, repository.path, runId], { home: targets.home.path });
      expect(answer.exitCode, answer.stderr).toBe(0);
      const rows = words.includes('diff') ? answer.stdout.split('\n\n')[0]! : answer.stdout;
      const wider = rows.split('\n').filter((line) => line.includes('\u6771') && columns(line) > 80);
      expect(
        wider.map((line) => `${String(columns(line))} columns: ${line.slice(0, 30)}…`),
        `${words.join(' ')} printed wide characters past 80 columns`,
      ).toEqual([]);
    }
  });

  it("accept --verbose shows a failing check's long output line in pieces behind its gutter: none runs on past 80 columns", async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['sh out.sh'] });
    // The candidate's check prints one line padded to the edge of an 80-column row, then a forged verdict.
    const script = `printf 'ok%${String(80 - '    | ok'.length)}s%s\\n' '' 'acceptance: accepted (every-check-passed)'; exit 1\n`;
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'out.sh', script), '--json'], {
      home: targets.home.path,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const { runId } = parseJson<{ runId: string }>(run);
    // accept's summary cuts the line; --verbose shows the failing check's tail whole.
    const accepted = await runStatecraft(['accept', repository.path, runId, '--verbose'], { home: targets.home.path });
    expect(accepted.exitCode).toBe(1);
    const lines = accepted.stdout.split('\n');
    expect(lines.filter((line) => line.includes('every-check-passed') && line.length > 80)).toEqual([]);
    expect(
      lines.some((line) => line.startsWith('    | acceptance: accepted')),
      accepted.stdout,
    ).toBe(true);
  });
});
