import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePrompt } from '../../fixtures/acceptance-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// `run diff` shows an attempt's candidate against its recorded base; `run log` its kept stream as a
// timeline, only once that stream is the one the chain sealed. Everything shown that the agent
// wrote (file names, its words, the prompt) is terminal-safe.

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path, timeoutMs: 120_000 });

interface Account {
  runId: string;
  attempt: number;
  workspace: string;
  artifacts: { stream: { path: string } };
}
interface Diff {
  candidate: { state: string; commit?: string; reason?: string };
  files: { path: string; status: string; additions: number | 'binary' }[];
  patch: string;
}
interface Log {
  prompt: { state: string; text?: string };
  stream: { state: string; message?: string };
  events: { type: string; kind?: string; tools?: string[]; text?: string; command?: string }[];
}

/** Runs the fixture with `prompt` in a fresh repository; its account. */
async function attempt(prompt: string, expectedExit: number) {
  const repository = await targets.fresh();
  const ran = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', prompt, '--json'], home());
  expect(ran.exitCode, ran.stderr).toBe(expectedExit);
  return { repository, account: parseJson<Account>(ran) };
}

/** Every line of a rendering: none may be wider than 80 columns or hold a control character but a tab. */
function expectTerminalSafe(text: string): void {
  // eslint-disable-next-line no-control-regex
  expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
}

describe('statecraft run diff: the candidate against the recorded base', () => {
  it('names each changed path with its counts and prints git patch (exit 0)', async () => {
    const { repository, account } = await attempt(writePrompt('write', 'answer.txt', 'forty-two'), 0);
    const diff = await runStatecraft(['run', 'diff', repository.path, account.runId, '--json'], home());
    expect(diff.exitCode, diff.stderr).toBe(0);
    const value = parseJson<Diff>(diff);
    expect(value.candidate.state).toBe('identified');
    expect(value.files).toEqual([{ path: 'answer.txt', status: 'A', additions: 1, deletions: 0 }]);
    expect(value.patch).toContain('+forty-two');
    const text = await runStatecraft(['run', 'diff', repository.path, account.runId], home());
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/^ {2}A +\+1 -0 +answer\.txt$/m);
    expect(text.stdout).toContain('+forty-two');
  });

  it('an attempt with no candidate says so and why (exit 1), in text and JSON', async () => {
    const { repository, account } = await attempt('scenario: refuse', 1);
    const diff = await runStatecraft(['run', 'diff', repository.path, account.runId, '--json'], home());
    expect(diff.exitCode).toBe(1);
    const value = parseJson<Diff>(diff);
    expect(value.candidate).toEqual({ state: 'not-recorded', reason: 'only a completed attempt has a candidate, and its outcome is refused' });
    expect(value.files).toEqual([]);
    const text = await runStatecraft(['run', 'diff', repository.path, account.runId], home());
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toContain('no candidate to compare (not-recorded)');
  });

  it("a candidate file name holding a line break and an escape sequence is shown escaped, never obeyed, and its content's controls too", async () => {
    const { repository, account } = await attempt(writePrompt('write', 'answer.txt', 'forty-two'), 0);
    // What an agent leaves in its workspace: a name that would start a line of its own, and content that clears the screen.
    await writeFile(join(account.workspace, 'evil\n  A  +0 -0        forged.txt'), '\u001b[2J\u001b[1;1Hcompleted\n');
    await writeFile(join(account.workspace, 'bell\u0007.txt'), 'x\n');
    // The retry reuses the run's adapter and prompt; its candidate is the tree left, the hostile names in it.
    const retried = await runStatecraft(['run', repository.path, '--retry', account.runId, '--json'], home());
    expect(retried.exitCode, retried.stderr).toBe(0);
    expect(parseJson<Account>(retried).attempt).toBe(2);
    const diff = parseJson<Diff>(await runStatecraft(['run', 'diff', repository.path, account.runId, '--json'], home()));
    expect(diff.files.map((file) => file.path).sort()).toEqual(['answer.txt', 'bell\u0007.txt', 'evil\n  A  +0 -0        forged.txt']);
    const text = await runStatecraft(['run', 'diff', repository.path, account.runId], home());
    expect(text.exitCode).toBe(0);
    expectTerminalSafe(text.stdout);
    expect(text.stdout).not.toMatch(/^ {2}A +\+0 -0 +forged\.txt$/m);
    expect(text.stdout).toContain('evil\\u000a  A  +0 -0        forged.txt');
    expect(text.stdout).toContain('bell\\u0007.txt');
    expect(text.stdout).toContain('\\u001b[2J');
  });
});

describe('statecraft run log: the kept stream as a timeline, once verified', () => {
  it('shows the prompt, the tool call with its command, the refusal, the message and the result (exit 0)', async () => {
    const { repository, account } = await attempt('scenario: refuse\nand a second line \u001b[31mred', 1);
    const log = await runStatecraft(['run', 'log', repository.path, account.runId, '--json'], home());
    expect(log.exitCode, log.stderr).toBe(0);
    const value = parseJson<Log>(log);
    expect(value.stream.state).toBe('verified');
    expect(value.prompt).toMatchObject({ state: 'verified', text: 'scenario: refuse\nand a second line \u001b[31mred' });
    expect(value.events.map((event) => event.type)).toEqual(['init', 'progress', 'refusal', 'progress', 'result']);
    expect(value.events[1]).toMatchObject({ kind: 'tool-use', tools: ['Bash'], command: 'git push' });
    expect(value.events[2]).toMatchObject({ tools: ['Bash'], command: 'git push' });
    expect(value.events[3]).toMatchObject({ kind: 'message', text: 'I could not push; everything else is done' });
    const text = await runStatecraft(['run', 'log', repository.path, account.runId], home());
    expect(text.exitCode).toBe(0);
    expectTerminalSafe(text.stdout);
    for (const line of text.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(text.stdout).toMatch(/^ {2}#2 REFUSAL +Bash: \$ git push/m);
    expect(text.stdout).toContain('and a second line \\u001b[31mred');
    expect(text.stdout).toMatch(/^ {2}#4 result +completed; the provider says success/m);
  });

  it('a kept stream altered after the chain sealed it is said not to match its record, and none of it is shown (exit 1)', async () => {
    const { repository, account } = await attempt('scenario: refuse', 1);
    const path = account.artifacts.stream.path;
    const kept = await readFile(path, 'utf8');
    // Same size, other bytes: the refusal's command rewritten.
    await writeFile(path, kept.replaceAll('git push', 'git pull'));
    for (const args of [['--json'], []]) {
      const log = await runStatecraft(['run', 'log', repository.path, account.runId, ...args], home());
      expect(log.exitCode).toBe(1);
      expect(log.stdout).not.toContain('git pull');
      if (args.length === 1) {
        const value = parseJson<Log>(log);
        expect(value.stream.state).toBe('altered');
        expect(value.events).toEqual([]);
      } else {
        // An entry's words go on under its 20-column label: joined, the message reads whole.
        expect(log.stdout.replace(/\n {20}/g, '')).toContain('does not match its record');
      }
    }
    // A forged event appended, and the file removed: each said, nothing shown.
    await writeFile(path, `${kept}{"protocol":1,"seq":5,"type":"progress","kind":"message","tools":[],"detail":{"text":"FORGED"}}\n`);
    const appended = await runStatecraft(['run', 'log', repository.path, account.runId], home());
    expect(appended.exitCode).toBe(1);
    expect(appended.stdout).not.toContain('FORGED');
    expect(appended.stdout.replace(/\n {20}/g, '')).toContain('does not match its record');
    await writeFile(path, '');
    const emptied = parseJson<Log>(await runStatecraft(['run', 'log', repository.path, account.runId, '--json'], home()));
    expect(emptied.stream.state).toBe('altered');
  });

  it('an altered kept prompt is not shown, and the log reads as a finding (exit 1)', async () => {
    const { repository, account } = await attempt('scenario: complete', 0);
    const promptPath = join(account.artifacts.stream.path, '..', 'prompt.txt');
    const log0 = parseJson<Log & { prompt: { path: string } }>(await runStatecraft(['run', 'log', repository.path, account.runId, '--json'], home()));
    expect(log0.prompt.path).toBe(promptPath);
    await writeFile(log0.prompt.path, 'scenario: forged');
    const log = await runStatecraft(['run', 'log', repository.path, account.runId], home());
    expect(log.exitCode).toBe(1);
    expect(log.stdout).not.toContain('forged');
  });

  it("an adapter's words that would forge a line of the timeline or repaint the terminal are shown as escapes, never obeyed; the JSON keeps them as said", async () => {
    const forged = '\n  #9 result          completed; the provider says success';
    const adapter = await createScriptedAdapter(
      'forging-words',
      [
        'init();',
        `emit({ type: 'progress', kind: 'message', tools: [], detail: { text: ${JSON.stringify(`all good${forged}\u001b[1A\u001b[2K`)} } });`,
        `emit({ type: 'progress', kind: 'tool-use', tools: ['Bash'], detail: { input: { command: ${JSON.stringify('rm -rf x\r\u001b]0;title\u0007')} } } });`,
        `emit({ type: 'refusal', tool: ${JSON.stringify('Bash\nREFUSAL')}, verbatim: { command: 'git push' } });`,
        `emit({ type: 'result', terminal: 'completed', claim: { status: ${JSON.stringify('success\u001b[2J')}, isError: false, reason: 'not-recorded', detail: {} }, turns: 1 });`,
      ].join('\n'),
    );
    try {
      const repository = await targets.fresh();
      const ran = await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--prompt', 'hi', '--json'], home());
      const runId = parseJson<Account>(ran).runId;
      const log = parseJson<Log>(await runStatecraft(['run', 'log', repository.path, runId, '--json'], home()));
      expect(log.stream.state).toBe('verified');
      expect(log.events[1]?.text).toBe(`all good${forged}\u001b[1A\u001b[2K`);
      expect(log.events[2]?.command).toBe('rm -rf x\r\u001b]0;title\u0007');
      const text = await runStatecraft(['run', 'log', repository.path, runId], home());
      expect(text.exitCode, text.stderr).toBe(0);
      expectTerminalSafe(text.stdout);
      for (const line of text.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
      // The only result line is the real one, the adapter's words never start one.
      expect(text.stdout.match(/^ {2}#\d+ result/gm)).toEqual(['  #4 result']);
      expect(text.stdout).not.toMatch(/^REFUSAL/m);
      expect(text.stdout).toContain('\\u001b[1A');
    } finally {
      await adapter.remove();
    }
  });
});
