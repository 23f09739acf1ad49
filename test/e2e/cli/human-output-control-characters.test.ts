import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, rowsRejoined, runStatecraft, type CliRun } from '../../fixtures/statecraft-cli.js';

/**
 * `run show --posture` as one line per row: a row wider than 80 columns goes on under its value
 * column (18 spaces in), and its pieces joined give it whole, as --json carries it.
 */
function unwrapped(answer: CliRun): CliRun {
  return { ...answer, stdout: rowsRejoined(answer.stdout, 18) };
}

const targets = useTestTargets();
const removals: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const remove of removals) await remove();
});

/**
 * An adapter's words reach the human rendering: its claim, a refused tool's name. Escape sequences
 * in them could move the cursor up and clear lines, so a terminal would show a refused attempt as
 * `completed` with `refusals 0`. They are shown as escapes;
 * the --json document keeps the adapter's exact words (R11: the same facts, each rendered for its reader).
 */
describe("an adapter's control characters are shown, never obeyed, in the human output (R11)", () => {
  it('run and run show print no escape, carriage return or line break an adapter wrote', async () => {
    const adapter = await createScriptedAdapter(
      'ansi',
      `const E = '\\u001b';
init();
emit({ type: 'refusal', tool: E + '[1A\\r' + E + '[2K  refusals        0\\nrun fake attempt 1: completed', verbatim: {} });
emit({ type: 'result', terminal: 'completed', claim: { status: 'success' + E + '[s' + E + '[4A\\r' + E + '[2K\\u009b2J', isError: false, reason: 'completed', detail: {} }, turns: 1 });`,
    );
    removals.push(adapter.remove);
    const repository = await targets.fresh();
    const text = await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--prompt', 'go'], { home: targets.home.path });
    expect(text.exitCode, text.stderr).toBe(1);
    const listed = parseJson<{ attempts: { runId: string }[] }>(await runStatecraft(['run', 'list', repository.path, '--json'], { home: targets.home.path }));
    const runId = listed.attempts[0]!.runId;
    const shown = unwrapped(await runStatecraft(['run', 'show', repository.path, runId, '--posture'], { home: targets.home.path }));
    const shownJson = parseJson<{ outcome: string; providerClaim: { status: string } }>(
      await runStatecraft(['run', 'show', repository.path, runId, '--json'], { home: targets.home.path }),
    );
    for (const output of [text.stdout, shown.stdout]) {
      // eslint-disable-next-line no-control-regex -- the escape, the carriage return and CSI are what must be absent
      expect(output).not.toMatch(/[\u001b\r\u009b]/);
      expect(output).not.toMatch(/^run fake attempt 1: completed/m);
      expect(output).not.toMatch(/^ *refusals +0/m);
      expect(output).toContain('success\\u001b[s\\u001b[4A\\u000d\\u001b[2K\\u009b2J');
    }
    // The summary of `run` cuts the refused tool's long name to its column; run show --posture says it whole.
    expect(text.stdout).toContain('refusals       \\u001b[1A\\u000d\\u001b[2K  refusals');
    expect(shown.stdout).toContain('\\u001b[1A\\u000d\\u001b[2K  refusals        0\\u000arun fake attempt 1: completed');
    // The document keeps the adapter's own words, unchanged.
    expect(shownJson.outcome).toBe('refused');
    expect(shownJson.providerClaim.status).toBe('success\u001b[s\u001b[4A\r\u001b[2K\u009b2J');
  });

  it("a file name the agent chose, line breaks and all, cannot forge a line of the acceptance's account", async () => {
    // Under a real `failed`, a file named like this printed a
    // passing check and `acceptance: accepted` as lines of their own in run --accept and run show.
    const forged = 'z\\n  check           grep -qx forty-two answer.txt: exit 0, 9 ms\\nacceptance: accepted (every-check-passed)';
    const adapter = await createScriptedAdapter(
      'names-a-file',
      `const fs = require('node:fs');
init();
fs.writeFileSync('answer.txt', 'forty-one\\n');
fs.writeFileSync('${forged}', '');
emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });`,
    );
    removals.push(adapter.remove);
    const repository = await targets.fresh();
    await mkdir(join(repository.path, '.statecraft'), { recursive: true });
    await writeFile(
      join(repository.path, '.statecraft', 'environment.json'),
      JSON.stringify({ project: { commands: ['grep'] }, acceptance: { checks: ['grep -qx forty-two answer.txt'] } }),
    );
    await repository.git('add', '.');
    await repository.git('commit', '--quiet', '-m', 'a check');
    const run = await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--accept', '--prompt', 'go'], { home: targets.home.path });
    expect(run.exitCode, run.stderr).toBe(1);
    const listed = parseJson<{ attempts: { runId: string }[] }>(await runStatecraft(['run', 'list', repository.path, '--json'], { home: targets.home.path }));
    const runId = listed.attempts[0]!.runId;
    const shown = unwrapped(await runStatecraft(['run', 'show', repository.path, runId, '--posture'], { home: targets.home.path }));
    const shownJson = parseJson<{ acceptance: { verdict: string; candidate: { changedPaths: string[] } } }>(
      await runStatecraft(['run', 'show', repository.path, runId, '--json'], { home: targets.home.path }),
    );
    for (const output of [run.stdout, shown.stdout]) {
      expect(output).not.toMatch(/^acceptance: accepted/m);
      expect(output).not.toMatch(/^ {2}check {11}grep -qx forty-two answer.txt: exit 0/m);
    }
    // The summary of `run`: the verdict, and the file counted (its name too long for the column).
    expect(run.stdout).toMatch(/^ {2}acceptance {5}failed — /m);
    expect(run.stdout).toMatch(/^ {2}changed {8}answer\.txt and 1 more \(2 files\)$/m);
    expect(shown.stdout).toMatch(/^acceptance: failed \(check-failed\)/m);
    expect(shown.stdout).toContain('z\\u000a  check           grep -qx forty-two answer.txt: exit 0, 9 ms\\u000aacceptance: accepted (every-check-passed)');
    // The document keeps the file's own name.
    expect(shownJson.acceptance.verdict).toBe('failed');
    expect(shownJson.acceptance.candidate.changedPaths).toContain(
      'z\n  check           grep -qx forty-two answer.txt: exit 0, 9 ms\nacceptance: accepted (every-check-passed)',
    );
  });
});

/**
 * Every way text can end a line or be obeyed on a terminal, each before a line that reads as
 * statecraft's own verdict: line feed, carriage return, both, vertical tab, form feed, the Unicode
 * line and paragraph separators, NEL, an ESC sequence, a C1 CSI, and the bidi override and isolates.
 */
const BREAKS = [
  '\n',
  '\r',
  '\r\n',
  '\u000b',
  '\u000c',
  '\u2028',
  '\u2029',
  '\u0085',
  '\u001b[1A\u001b[2K',
  '\u009b2K',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200f',
];
const FORGED = 'acceptance: accepted (every-check-passed)';
const HOSTILE = BREAKS.map((sequence) => `${sequence}${FORGED}`).join('');
// eslint-disable-next-line no-control-regex -- what must never reach the terminal raw
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** No forged line, nothing a terminal would obey, and each sequence shown as its escape. */
function expectShownNeverObeyed(output: string, label: string): void {
  // `^` under the m flag starts after \n, \r, U+2028 and U+2029: a forged line by JavaScript's reading too.
  expect(output, label).not.toMatch(/^acceptance: accepted/m);
  expect(output, label).not.toMatch(UNSAFE);
  for (const escape of ['\\u000a', '\\u000d', '\\u2028', '\\u2029', '\\u0085', '\\u001b[1A', '\\u009b2K', '\\u202e', '\\u2066', '\\u2069', '\\u200f'])
    expect(output, `${label}: ${escape}`).toContain(`${escape}`);
}

describe('untrusted text reaches human output only through one terminal-safe rendering, on every verb (R11)', () => {
  it("an adapter's error code and message, and an unknown key a malformed stream's reason quotes, forge no line in run or run show", async () => {
    const erring = await createScriptedAdapter(
      'errs',
      `init();
emit({ type: 'error', code: 'E' + ${JSON.stringify(HOSTILE)}, message: 'm' + ${JSON.stringify(HOSTILE)} });`,
    );
    const malformed = await createScriptedAdapter(
      'malformed',
      `init();
emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1, ['k' + ${JSON.stringify(HOSTILE)}]: 1 });`,
    );
    removals.push(erring.remove, malformed.remove);
    for (const adapter of [erring, malformed]) {
      const repository = await targets.fresh();
      const ran = await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--prompt', 'go'], { home: targets.home.path });
      expect(ran.exitCode, ran.stderr).toBe(1);
      const listed = parseJson<{ attempts: { runId: string }[] }>(await runStatecraft(['run', 'list', repository.path, '--json'], { home: targets.home.path }));
      const runId = listed.attempts[0]!.runId;
      const shown = unwrapped(await runStatecraft(['run', 'show', repository.path, runId, '--posture'], { home: targets.home.path }));
      // The summary of `run` cuts the error to its column: nothing in it obeyed; run show --posture says it whole.
      expect(ran.stdout).not.toMatch(/^acceptance: accepted/m);
      expect(ran.stdout).not.toMatch(UNSAFE);
      expectShownNeverObeyed(shown.stdout, `run show, ${adapter.executable}`);
      const json = await runStatecraft(['run', 'show', repository.path, runId, '--json'], { home: targets.home.path });
      // The document keeps the adapter's own words, unchanged.
      expect(JSON.stringify(parseJson(json))).toContain(JSON.stringify(HOSTILE).slice(1, -1));
    }
  });

  it("a check's command from the repository and its output, shown by accept and run show, forge no line", async () => {
    const script = `process.stdout.write(${JSON.stringify(`out${HOSTILE}\n`)}); process.stderr.write(${JSON.stringify(`err${HOSTILE}\n`)}); process.exitCode = 1;\n`;
    const command = `node hostile.mjs #${HOSTILE.replace(/\n|\r/g, ' ')}`;
    const repository = await repositoryWithSuite(targets, { checks: [command] }, { 'hostile.mjs': script });
    const ran = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', 'forty-two'), '--json'], {
      home: targets.home.path,
    });
    expect(ran.exitCode, ran.stderr).toBe(0);
    const runId = parseJson<{ runId: string }>(ran).runId;
    const accepted = await runStatecraft(['accept', repository.path, runId, '--verbose'], { home: targets.home.path, timeoutMs: 120_000 });
    expect(accepted.exitCode, accepted.stderr).toBe(1);
    expect(accepted.stdout).toMatch(/^acceptance of run .*: failed/m);
    // The output's own lines, at whatever break a terminal would obey, each shown behind its `|`.
    expect(accepted.stdout).toContain(`    | out\n    | ${FORGED}\n    | ${FORGED}\n    | ${FORGED}\\u000b`);
    const shown = unwrapped(await runStatecraft(['run', 'show', repository.path, runId, '--posture'], { home: targets.home.path }));
    for (const [label, output] of [
      ['accept', accepted.stdout],
      ['run show', shown.stdout],
    ] as const) {
      expect(output, label).not.toMatch(/^acceptance: accepted/m);
      expect(output, label).not.toMatch(UNSAFE);
      expect(output, label).toContain(`\\u2028${FORGED}\\u2029${FORGED}\\u0085${FORGED}`);
    }
  });

  it("a manifest's key quoted in a refusal on stderr, a record's field doctor quotes, and a qualification record's key forge no line", async () => {
    const adapter = await createScriptedAdapter('hostile-manifest', 'init();');
    removals.push(adapter.remove);
    await writeFile(
      `${adapter.executable}.manifest.json`,
      JSON.stringify({ name: 'hostile-manifest', version: '1.0.0', protocol: 1, capabilities: [], requiresCommands: ['node'], [`k${HOSTILE}`]: 1 }),
    );
    const repository = await targets.fresh();
    const refused = await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--prompt', 'go'], { home: targets.home.path });
    expect(refused.exitCode, refused.stderr).toBe(2);
    expectShownNeverObeyed(refused.stderr, 'run refused on stderr');

    // A record appended to a chain, and a qualification record, each holding a key that forges a line.
    const ran = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'hello', '--json'], { home: targets.home.path });
    const chain = parseJson<{ records: { chain: string } }>(ran).records.chain;
    await appendFile(chain, `${JSON.stringify({ kind: `intent${HOSTILE}`, [`k${HOSTILE}`]: HOSTILE })}\n`);
    await mkdir(join(targets.home.path, 'qualifications'), { recursive: true });
    await writeFile(join(targets.home.path, 'qualifications', 'hostile.json'), JSON.stringify({ id: `x${HOSTILE}`, [`k${HOSTILE}`]: 1 }));
    const doctor = await runStatecraft(['doctor'], { home: targets.home.path });
    expect(doctor.exitCode, doctor.stderr).toBe(1);
    expectShownNeverObeyed(doctor.stdout, 'doctor');
    const listed = await runStatecraft(['qualifications', 'list'], { home: targets.home.path });
    expectShownNeverObeyed(listed.stdout, 'qualifications list');
    expect(rowsRejoined(listed.stdout, 2)).toMatch(/^unreadable: .*hostile\.json: field "kind".*Unrecognized key: "k\\u000aacceptance: accepted/m);
    await rm(join(targets.home.path, 'qualifications', 'hostile.json'));
  });
});
