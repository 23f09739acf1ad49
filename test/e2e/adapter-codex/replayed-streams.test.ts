import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordedStreamsDirectory, writeAlteredStreams } from '@statecraft/adapter-codex';
import { codexReplays } from '../../fixtures/codex-adapter-process.js';
import type { Replayed } from '../../fixtures/codex-adapter-process.js';

const { replay, roots } = codexReplays();

// The mapping table (decision 0060), row by row, across a real process boundary:
// the bundled adapter is given a fake `codex` (testdata/replay-codex.mjs) that prints a native
// stream recorded from the pinned binary (packages/adapter-codex/testdata/stream/README.md), or an altered copy of one.

const recorded = (name: string) => join(recordedStreamsDirectory(), `${name}.jsonl`);

async function edited(name: string, change: (lines: string[]) => string[]): Promise<string> {
  const lines = (await readFile(recorded(name), 'utf8')).split('\n').filter((line) => line !== '');
  const root = await mkdtemp(join(tmpdir(), 'statecraft-codex-edited-'));
  roots.push(root);
  const path = join(root, `${name}.jsonl`);
  await writeFile(path, `${change(lines).join('\n')}\n`);
  return path;
}

const resultOf = (run: Replayed) => run.events.find((event) => event.type === 'result');
const progress = (run: Replayed) => run.events.filter((event) => event.type === 'progress');

describe('recorded Codex streams replayed through a real child: the mapping table (issue 13 item 3)', () => {
  it('row 1: thread.started and the configuration become the init, first, with the provider version, model, sandbox mode and applied tokens', async () => {
    const run = await replay(recorded('completed'));
    expect(run.otherLines).toEqual([]);
    const init = run.events[0];
    expect(init?.type).toBe('init');
    if (init?.type !== 'init') return;
    expect(init.provider).toMatchObject({ name: 'codex', version: '0.171.0+replay' });
    expect(init.applied).toEqual({
      capabilities: ['tool-allowlist', 'workspace-write', 'hook-enforcement', 'structured-refusals'],
      tools: 'not-recorded',
      allowlist: 'not-recorded',
    });
    expect(init.detail).toMatchObject({
      model: 'provider-default',
      sandboxMode: 'workspace-write',
      approvalPolicy: 'never',
      ttySessions: 'disabled',
      threadId: '00000000-0000-7000-8000-000000000000',
    });
    // Only sandboxed, with no rule and no hook, leaves tty sessions on: strict's hook enforces the allowlist.
    const sandboxed = await replay(recorded('completed'), { sandboxed: true });
    const sandboxedInit = sandboxed.events[0];
    expect(sandboxedInit?.type === 'init' ? sandboxedInit.detail : undefined).toMatchObject({ ttySessions: 'enabled' });
  });

  it('row 2: items become progress — a command_execution a tool use of Bash then a tool result, a message a message, a warning item a notice that ends nothing', async () => {
    const run = await replay(recorded('allowed'));
    const kinds = progress(run).map((event) => (event.type === 'progress' ? [event.kind, event.tools] : []));
    expect(kinds).toEqual([
      ['notice', []],
      ['notice', []],
      ['notice', []],
      ['message', []],
      ['tool-use', ['Bash']],
      ['tool-result', []],
      ['message', []],
    ]);
    expect(resultOf(run)).toMatchObject({ terminal: 'completed' });
  });

  it('row 3: turn.completed becomes a completed result carrying the usage, with no cost and no turn count (R4 row 5)', async () => {
    const run = await replay(recorded('completed'));
    const result = resultOf(run);
    expect(result).toMatchObject({ terminal: 'completed', claim: { status: 'turn.completed', isError: false, reason: 'completed' }, turns: 'not-recorded' });
    expect(result?.type === 'result' ? result.cost : 'absent').toBeUndefined();
    expect(result?.type === 'result' ? result.usage : undefined).toMatchObject({ input_tokens: 120, output_tokens: 30 });
    expect(run.events.at(-1)).toBe(result);
  });

  it('row 4: an HTTP error from the model (turn.failed) becomes a provider-error result with the claim kept, the error notice as progress', async () => {
    const run = await replay(recorded('http-error'));
    expect(progress(run).some((event) => event.type === 'progress' && event.kind === 'provider-error-notice')).toBe(true);
    expect(resultOf(run)).toMatchObject({
      terminal: 'provider-error',
      claim: { status: 'turn.failed', isError: true, reason: expect.stringContaining('The model double refuses this request.') as unknown },
    });
  });

  it('row 5: a denied or hook-blocked call leaves no trace in the native stream, so replayed without the adapter hook it is no refusal (R14.2)', async () => {
    for (const name of ['denied', 'hook-blocked']) {
      const run = await replay(recorded(name));
      expect(
        run.events.filter((event) => event.type === 'refusal'),
        name,
      ).toEqual([]);
      expect(resultOf(run), name).toMatchObject({ terminal: 'completed' });
    }
  });

  it('row 6: a stream that ends without turn.completed has no result (the supervisor reads no-result), and a cut one ends the same way', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'statecraft-codex-altered-'));
    roots.push(directory);
    const altered = await writeAlteredStreams(directory);
    for (const name of ['no-result', 'truncated'] as const) {
      const run = await replay(altered[name]);
      expect(resultOf(run), name).toBeUndefined();
      expect(run.events[0]?.type, name).toBe('init');
    }
  });

  it('row 7: a turn ending nobody measured (turn.cancelled) is reported unmapped, never completed', async () => {
    const run = await replay(await edited('completed', (lines) => lines.map((line) => line.replace('"type":"turn.completed"', '"type":"turn.cancelled"'))));
    expect(resultOf(run)).toMatchObject({ terminal: 'unmapped', claim: { status: 'turn.cancelled', isError: 'not-recorded' } });
  });

  it('row 8: a line that is not JSON ends the stream as malformed, and a line that is not UTF-8 as unreadable (R7.5)', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'statecraft-codex-altered-'));
    roots.push(directory);
    const altered = await writeAlteredStreams(directory);
    const malformed = await replay(altered.malformed);
    expect(malformed.otherLines.at(-1)).toMatch(/^malformed provider stream: native line 2: not JSON/);
    expect(resultOf(malformed)).toBeUndefined();
    const unreadable = await replay(altered['read-failure']);
    expect(unreadable.otherLines.at(-1)).toMatch(/^unreadable provider stream: native line 5 is not UTF-8/);
    expect(resultOf(unreadable)).toBeUndefined();
  });
});
