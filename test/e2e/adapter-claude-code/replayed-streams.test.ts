import { isUtf8 } from 'node:buffer';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { digestFile } from '@statecraft/adapter';
import { pinnedClaudePath, recordedStreamsDirectory, replayClaudePath, writeAlteredStreams } from '@statecraft/adapter-claude-code';
import { baseEnvironment, eventsOfType, runAdapter, sandboxMaker } from '../../fixtures/claude-code-adapter-process.js';
import type { AdapterRun } from '../../fixtures/claude-code-adapter-process.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

const makeSandbox = sandboxMaker();

// The mapping, tested across a real process boundary: the adapter is given a fake `claude`
// (testdata/replay-claude.mjs) that prints a native stream recorded from the pinned binary
// (packages/adapter-claude-code/testdata/stream/README.md), or an altered copy of one.

async function replay(stream: string, extra: Record<string, string> = {}): Promise<AdapterRun> {
  const sandbox = await makeSandbox({ withClaude: false });
  const environment = { ...baseEnvironment(sandbox), STATECRAFT_REPLAY_NATIVE_STREAM: stream, ...extra };
  return runAdapter({ sandbox, environment, provider: replayClaudePath() });
}

const scratch = scratchDirectories();
const recorded = (name: string) => join(recordedStreamsDirectory(), `${name}.jsonl`);

async function altered(name: string, change: (lines: string[]) => string[]): Promise<string> {
  const lines = (await readFile(recorded(name), 'utf8')).split('\n').filter((line) => line !== '');
  const path = join(await scratch.make('statecraft-altered'), `${name}.jsonl`);
  await writeFile(path, `${change(lines).join('\n')}\n`);
  return path;
}

function terminalOf(run: AdapterRun) {
  const last = run.events.at(-1);
  return last?.type === 'result' ? last : undefined;
}

describe('recorded Claude Code streams replayed through a real child', () => {
  it.each([
    ['completed', 'completed', 0],
    ['denied', 'completed', 1],
    ['max-turns', 'turn-limit', 0],
    ['not-logged-in', 'provider-error', 0],
    ['hook-blocked', 'completed', 1],
    ['tool-removed', 'completed', 0],
  ] as const)('maps the recorded %s stream to the terminal state %s with %i refusal(s) (R10.2, R10.4)', async (name, terminal, refusals) => {
    const run = await replay(recorded(name));
    expect(run.otherLines).toEqual([]);
    expect(run.events[0]?.type).toBe('init');
    expect(terminalOf(run)?.terminal).toBe(terminal);
    expect(eventsOfType(run, 'refusal')).toHaveLength(refusals);
  });

  it('names the replaying provider by the version its stream states and by its own digest, so a different binary claiming 2.1.328 is told apart by its bytes (R3.3, R10.2, R10.7)', async () => {
    const run = await replay(recorded('completed'));
    const init = eventsOfType(run, 'init')[0];
    // The version is the provider's claim, read from its system/init (the stand-in's --version says 2.1.328+replay and is not asked).
    expect(init?.provider).toMatchObject({ name: 'claude', version: '2.1.328', digest: await digestFile(replayClaudePath()) });
    expect(init?.provider).not.toMatchObject({ digest: await digestFile(pinnedClaudePath()) });
  });

  it('carries each denial verbatim as claude tells of it, exactly once, before the result, and counts nothing itself (R1.4, R10.2, R7.4)', async () => {
    const lines = (await readFile(recorded('denied'), 'utf8')).split('\n');
    const notice = JSON.parse(lines.find((line) => line.includes('"subtype":"permission_denied"')) ?? '') as { tool_use_id: string };
    const denials = (JSON.parse(lines.find((line) => line.includes('"type":"result"')) ?? '') as { permission_denials: { tool_use_id: string }[] })
      .permission_denials;
    // The terminal list names the same call: it is not counted a second time.
    expect(denials.map((denial) => denial.tool_use_id)).toEqual([notice.tool_use_id]);
    const run = await replay(recorded('denied'));
    // It reads as the list's entry does (the tool, the call, its input as the assistant gave it), with the notice whole.
    expect(eventsOfType(run, 'refusal').map((event) => event.verbatim)).toEqual([{ ...denials[0], notice }]);
    // Refusals come before the terminal result: after it, the supervisor interprets nothing (R7.4).
    expect(run.events.map((event) => event.type).at(-1)).toBe('result');
    expect(JSON.stringify(terminalOf(run))).not.toMatch(/"refusalCount"|"refusals"/);
  });

  it('carries a denial with a __proto__ key whole, as the refusal and in the claim: the native line is not copied key by key (R1.4, R8.2)', async () => {
    // zod's loose object copies a line key by key and leaves `__proto__` out.
    // No notice: the terminal list's entry is the refusal.
    const stream = await altered('denied', (lines) =>
      lines
        .filter((line) => !line.includes('"subtype":"permission_denied"'))
        .map((line) =>
          line.includes('"type":"result"') ? line.replace('"permission_denials":[{', '"permission_denials":[{"__proto__":{"tool_name":"Read"},') : line,
        ),
    );
    const native = (await readFile(stream, 'utf8')).split('\n').filter((line) => line.includes('"type":"result"'))[0] ?? '';
    const denials = JSON.stringify((JSON.parse(native) as { permission_denials: unknown[] }).permission_denials);
    expect(denials).toContain('"__proto__":{"tool_name":"Read"}');
    const run = await replay(stream);
    expect(JSON.stringify(eventsOfType(run, 'refusal').map((event) => event.verbatim))).toBe(denials);
    expect(JSON.stringify(terminalOf(run)?.claim.detail['permission_denials'])).toBe(denials);
  });

  it('reports a terminal state nobody measured as unmapped, never completed (R10.4)', async () => {
    const stream = await altered('completed', (lines) =>
      lines.map((line) =>
        line.includes('"type":"result"')
          ? line.replace('"subtype":"success"', '"subtype":"error_during_execution"').replace('"terminal_reason":"completed"', '"terminal_reason":"aborted"')
          : line,
      ),
    );
    const end = terminalOf(await replay(stream));
    expect(end?.terminal).toBe('unmapped');
    expect(end?.claim.status).toBe('error_during_execution');
  });

  it('omits the cost when the provider reports none, so it reads unknown, never zero (R4 row 5)', async () => {
    const stream = await altered('completed', (lines) => lines.map((line) => line.replace(/"total_cost_usd":[0-9.e-]+,/, '')));
    const end = terminalOf(await replay(stream));
    expect(end?.terminal).toBe('completed');
    expect(end?.cost).toBeUndefined();
  });

  it('ends its stream with a line that is not an event when a native line is not JSON, and emits no result (R7.5 malformed, R4 row 4)', async () => {
    const stream = await altered('completed', (lines) => [lines[0] ?? '', '{"type":"assistant", this is not json', ...lines.slice(1)]);
    const run = await replay(stream);
    expect(run.events.map((event) => event.type)).toEqual(['init']);
    expect(run.otherLines).toHaveLength(1);
    expect(run.otherLines[0]).toContain('native line 2');
    expect(() => JSON.parse(run.otherLines[0] ?? '') as unknown).toThrow();
  });

  it('treats a result that lacks permission_denials as malformed, because a missing refusal list cannot be read as none (R8.3)', async () => {
    const stream = await altered('denied', (lines) =>
      lines.map((line) => line.replace(/"permission_denials":\[.*?\]\}?,"terminal_reason"/, '"terminal_reason"')),
    );
    const run = await replay(stream);
    expect(terminalOf(run)).toBeUndefined();
    // The denial claude told of as it happened is kept; nothing is read from the result.
    expect(eventsOfType(run, 'refusal').map((event) => (event.verbatim as { notice?: { subtype?: string } }).notice?.subtype)).toEqual(['permission_denied']);
    expect(run.otherLines[0]).toContain('permission_denials');
  });

  it('passes a native line that is not UTF-8 on as bytes, so the supervisor reads a read failure, and emits no result (R7.5 read failure, R4 row 4)', async () => {
    const streams = await writeAlteredStreams(await scratch.make('statecraft-altered'));
    const run = await replay(streams['read-failure']);
    expect(run.events.map((event) => event.type)).toEqual(['init']);
    expect(run.otherLines).toHaveLength(1);
    expect(run.otherLines[0]).toContain('is not UTF-8');
    const lastLine = run.stdoutBytes.subarray(run.stdoutBytes.lastIndexOf(0x0a, run.stdoutBytes.length - 2) + 1);
    expect(isUtf8(lastLine)).toBe(false);
  });

  it('invents no result for a truncated stream, and keeps the denial claude told of before it ended: the supervisor will read no-result (R7.5, R10.2)', async () => {
    const stream = await altered('denied', (lines) => lines.filter((line) => !line.includes('"type":"result"')));
    const run = await replay(stream);
    expect(run.events[0]?.type).toBe('init');
    expect(run.events.some((event) => event.type === 'result')).toBe(false);
    expect(eventsOfType(run, 'refusal')).toHaveLength(1);
    expect(run.otherLines).toEqual([]);
  });

  it('summarises a progress event whose native line is huge, so one large tool result does not make the stream malformed (R7.5)', async () => {
    const huge = 'x'.repeat(2 * 1024 * 1024);
    const stream = await altered('completed', (lines) => [
      lines[0] ?? '',
      JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', content: huge, tool_use_id: 'toolu_1' }] } }),
      ...lines.slice(1),
    ]);
    const run = await replay(stream);
    expect(run.otherLines).toEqual([]);
    const toolResult = eventsOfType(run, 'progress').find((event) => event.kind === 'tool-result');
    expect(toolResult?.detail).toMatchObject({ type: 'user', truncated: true, nativeBytes: expect.any(Number) as unknown });
    expect(Math.max(...run.stdout.split('\n').map((line) => Buffer.byteLength(line)))).toBeLessThan(1024 * 1024);
    expect(terminalOf(run)?.terminal).toBe('completed');
  });

  it('reads no exit code of claude: a completed stream from a provider exiting 1 is still completed (R7.6)', async () => {
    const run = await replay(recorded('completed'), { STATECRAFT_REPLAY_EXIT: '1' });
    expect(terminalOf(run)?.terminal).toBe('completed');
  });

  it('speaks an init even when the provider printed nothing: applied nothing, tools not-recorded (R2.4)', async () => {
    const run = await replay('/dev/null');
    expect(run.events.map((event) => event.type)).toEqual(['init']);
    expect(eventsOfType(run, 'init')[0]?.applied).toEqual({ capabilities: [], tools: 'not-recorded', allowlist: 'not-recorded' });
  });
});
