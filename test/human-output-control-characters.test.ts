import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScriptedAdapter } from './fixtures/scripted-adapter.js';
import { useTestTargets } from './fixtures/sample-repository.js';
import { parseJson, runStatecraft } from './fixtures/statecraft-cli.js';

const targets = useTestTargets();
const removals: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const remove of removals) await remove();
});

/**
 * An adapter's words reach the human rendering: its claim, a refused tool's name. Found by a hostile
 * adapter (2026-12-01): escape sequences in them moved the cursor up and cleared lines, so a
 * terminal showed a refused attempt as `completed` with `refusals 0`. They are shown as escapes now;
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
    const shown = await runStatecraft(['run', 'show', repository.path, runId], { home: targets.home.path });
    const shownJson = parseJson<{ outcome: string; providerClaim: { status: string } }>(
      await runStatecraft(['run', 'show', repository.path, runId, '--json'], { home: targets.home.path }),
    );
    for (const output of [text.stdout, shown.stdout]) {
      // eslint-disable-next-line no-control-regex -- the escape, the carriage return and CSI are what must be absent
      expect(output).not.toMatch(/[\u001b\r\u009b]/);
      expect(output).toContain('\\u001b[1A\\u000d\\u001b[2K  refusals        0\\u000arun fake attempt 1: completed');
      expect(output).not.toMatch(/^run fake attempt 1: completed/m);
      expect(output).toContain('success\\u001b[s\\u001b[4A\\u000d\\u001b[2K\\u009b2J');
    }
    // The document keeps the adapter's own words, unchanged.
    expect(shownJson.outcome).toBe('refused');
    expect(shownJson.providerClaim.status).toBe('success\u001b[s\u001b[4A\r\u001b[2K\u009b2J');
  });

  it("a file name the agent chose, line breaks and all, cannot forge a line of the acceptance's account", async () => {
    // Found by a hostile pass (2026-12-02): under a real `failed`, a file named like this printed a
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
    const shown = await runStatecraft(['run', 'show', repository.path, runId], { home: targets.home.path });
    const shownJson = parseJson<{ acceptance: { verdict: string; candidate: { changedPaths: string[] } } }>(
      await runStatecraft(['run', 'show', repository.path, runId, '--json'], { home: targets.home.path }),
    );
    for (const output of [run.stdout, shown.stdout]) {
      expect(output).toMatch(/^acceptance: failed \(check-failed\)/m);
      expect(output).not.toMatch(/^acceptance: accepted/m);
      expect(output).not.toMatch(/^ {2}check {11}grep -qx forty-two answer.txt: exit 0/m);
      expect(output).toContain('z\\u000a  check           grep -qx forty-two answer.txt: exit 0, 9 ms\\u000aacceptance: accepted (every-check-passed)');
    }
    // The document keeps the file's own name.
    expect(shownJson.acceptance.verdict).toBe('failed');
    expect(shownJson.acceptance.candidate.changedPaths).toContain(
      'z\n  check           grep -qx forty-two answer.txt: exit 0, 9 ms\nacceptance: accepted (every-check-passed)',
    );
  });
});
