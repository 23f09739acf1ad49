import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeCodeAdapterPath, recordedStreamsDirectory, replayClaudePath } from '@statecraft/adapter-claude-code';
import { createProductHome, createSampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { useLiveClaude } from '../../fixtures/live-claude.js';

/** Every temporary directory this file makes, removed when it is done. */
const scratch = scratchDirectories();

// Issue 4, done-when, through the built CLI: the real pinned claude behind the bundled adapter,
// talking only to the model double on 127.0.0.1. The operator's PATH holds `claude` (a symlink
// to the pinned binary) and node; the double's address and a test key are the operator's
// environment, carried into the child by the adapter's manifest (R5.4). No network, no real key.

interface RunJson {
  runId: string;
  outcome: string;
  timedOut: boolean;
  adapterError: unknown;
  posture: { survivors: unknown[] };
  cause: string;
  refusalCount: number;
  providerClaim: { status: string; isError: boolean | string; reason: string } | string;
  cost: number | string;
  workspace: string;
  provider: { name: string; version: string; digest: string };
  exit: unknown;
  artifacts: { stream: { path: string } };
}

const claude = useLiveClaude(scratch, 'statecraft-cc-bin');

async function run(scenario: string | null, extra: readonly string[], path?: string) {
  const repository = await createSampleRepository();
  scratch.keep(repository);
  const home = await createProductHome();
  scratch.keep(home);
  const operatorHome = await scratch.make('statecraft-cc-operator-home');
  const env = claude.environment(scenario, operatorHome, path);
  // A deadline of the test's own replaces the default one: an option is given once (a repeat is a usage error).
  const deadline = extra.includes('--deadline') ? [] : ['--deadline', '120s'];
  const answer = await runStatecraft(
    ['run', repository.path, '--adapter', claudeCodeAdapterPath(), '--prompt', 'Do the scripted work.', ...deadline, '--json', ...extra],
    { home: home.path, env, timeoutMs: 150_000 },
  );
  return { answer, value: parseJson<RunJson>(answer), repository };
}

describe('statecraft run with the Claude Code adapter', () => {
  it('records a denied tool call as refused while the provider claims success, with the cost carried (R10.4, R8.2)', async () => {
    // Under strict permissions inside the boundary claude accepts edits in the workspace
    // (acceptEdits), so the call it denies by itself, with no rule, is a write beside the workspace.
    const { answer, value } = await run('bash-write-outside', ['--permissions', 'strict']);
    expect(value.outcome).toBe('refused');
    expect(value.refusalCount).toBe(1);
    expect(value.providerClaim).toMatchObject({ status: 'success', isError: false });
    expect(typeof value.cost === 'number' && value.cost > 0).toBe(true);
    expect(answer.exitCode).toBe(1);
  });

  it('lets an allowed call run: its effect lands in the workspace and never in the operator checkout (R10.1, R8.6)', async () => {
    const { value, repository } = await run('bash-touch', ['--permissions', 'strict', '--allow', 'Bash(touch:*)']);
    expect(value.outcome).toBe('completed');
    expect(existsSync(join(value.workspace, 'statecraft-marker.txt'))).toBe(true);
    expect(existsSync(join(repository.path, 'statecraft-marker.txt'))).toBe(false);
  });

  it('records --max-turns 1 on a tool-calling scenario as interrupted, the provider exit 1 ignored (R10.4, R7.6)', async () => {
    const { value } = await run('bash-echo', ['--max-turns', '1']);
    expect(value.outcome).toBe('interrupted');
    expect(value.cause).toBe('turn-limit');
    expect(value.providerClaim).toMatchObject({ status: 'error_max_turns', reason: 'max_turns' });
  });

  it('records "Not logged in" (no key, no base URL) as interrupted with the claim kept (R10.4, R5.4)', async () => {
    // Without a credential the run is refused before spawn unless the operator says to start it anyway.
    const { value } = await run(null, ['--allow-missing-credential']);
    expect(value.outcome).toBe('interrupted');
    expect(value.cause).toBe('provider-error');
    expect(value.providerClaim).toMatchObject({ status: 'success', isError: true, reason: 'api_error' });
  });

  it('fails visibly when claude is absent from the constructed PATH: interrupted, and the stream records why (R5.4, R10.6)', async () => {
    const withoutClaude = `${dirname(process.execPath)}:/usr/bin:/bin`;
    const { value } = await run('completed', [], withoutClaude);
    expect(value.outcome).toBe('interrupted');
    expect(value.cause).toBe('adapter-error');
    const stream = await readFile(value.artifacts.stream.path, 'utf8');
    expect(stream).toContain('"code":"provider-not-found"');
    expect(stream).toContain(`no executable \\"claude\\" on the constructed PATH (${withoutClaude})`);
    // The reason reaches the record and the account, not only the raw stream (R5.4).
    expect(value.adapterError).toMatchObject({ code: 'provider-not-found' });
  });

  it('reads a 200 MB native line without end as a malformed stream, the adapter holding bounded memory (R7.5, R4 row 4)', async () => {
    // `claude` here is the replaying stand-in: the recorded init, then one line that never ends.
    const endless = await scratch.make('statecraft-cc-endless');
    const init = join(endless, 'init.jsonl');
    await writeFile(init, `${readFileSync(join(recordedStreamsDirectory(), 'completed.jsonl'), 'utf8').split('\n')[0] ?? ''}\n`);
    const replay = `STATECRAFT_REPLAY_NATIVE_STREAM='${init}' STATECRAFT_REPLAY_ENDLESS_LINE_BYTES=${200 * 1024 * 1024}`;
    await writeFile(join(endless, 'claude'), `#!/bin/sh\n${replay} exec '${process.execPath}' '${replayClaudePath()}' "$@"\n`, { mode: 0o755 });
    // The adapter's peak resident set (VmHWM, a high-water mark), per run id, sampled while the CLI runs.
    const peaks = new Map<number, { runId: string; bytes: number }>();
    const watcher = setInterval(() => {
      for (const pid of processIds()) {
        const runId = runIdOf(pid);
        if (runId === undefined || !commandOf(pid).includes('statecraft-adapter-claude-code')) continue;
        const bytes = peakResidentBytesOf(pid);
        if (bytes !== undefined) peaks.set(pid, { runId, bytes: Math.max(bytes, peaks.get(pid)?.bytes ?? 0) });
      }
    }, 10);
    let outcome: Awaited<ReturnType<typeof run>>;
    try {
      outcome = await run(null, ['--allow-missing-credential'], `${endless}:${dirname(process.execPath)}:/usr/bin:/bin`);
    } finally {
      clearInterval(watcher);
    }
    const { value } = outcome;
    expect(value.outcome).toBe('interrupted');
    expect(value.cause).toBe('stream-malformed');
    const stream = await readFile(value.artifacts.stream.path, 'utf8');
    expect(stream).toMatch(/malformed provider stream: native line 2: longer than \d+ bytes/);
    // The adapter, and the namespace's first process when it runs inside one: none held the line.
    const ours = [...peaks.values()].filter((peak) => peak.runId === value.runId).map((peak) => peak.bytes);
    expect(ours.length).toBeGreaterThan(0);
    expect(Math.max(...ours)).toBeLessThan(150 * 1024 * 1024);
  });

  it('starts claude once per attempt: the provider version is the one its own system/init states, no --version asked first (R10.2, R10.7)', async () => {
    // `claude` here is the replaying stand-in behind a wrapper that logs each start's arguments in
    // its working directory, the workspace: the one place the boundary lets it write that the run keeps.
    // The stand-in answers --version with `2.1.328+replay …`; the recorded init says 2.1.328.
    const once = await scratch.make('statecraft-cc-once');
    const stream = join(recordedStreamsDirectory(), 'completed.jsonl');
    const wrapper = `#!/bin/sh\necho "$*" >> claude-starts.log\nSTATECRAFT_REPLAY_NATIVE_STREAM='${stream}' exec '${process.execPath}' '${replayClaudePath()}' "$@"\n`;
    await writeFile(join(once, 'claude'), wrapper, { mode: 0o755 });
    const { value } = await run(null, ['--allow-missing-credential'], `${once}:${dirname(process.execPath)}:/usr/bin:/bin`);
    expect(value.outcome).toBe('completed');
    const starts = (await readFile(join(value.workspace, 'claude-starts.log'), 'utf8')).trim().split('\n');
    expect(starts).toHaveLength(1);
    expect(starts[0]).toMatch(/^--print --output-format stream-json --verbose /);
    // The version is claude's claim in its stream; the digest, of the bytes run, is what binds a qualification (R10.7).
    expect(value.provider).toMatchObject({ name: 'claude', version: '2.1.328', digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown });
  });

  it('kills the setsid descendant of a Bash tool call at the deadline: nothing of the run survives (R7.2, R7.3)', async () => {
    // Watch, while the CLI runs, for the `sleep 600` the scripted Bash call starts in a new session
    // (docs/facts.md item 10), identified by the run id the supervisor placed in its environment.
    const seen = new Map<number, string>();
    const watcher = setInterval(() => {
      for (const pid of processIds()) {
        const runId = runIdOf(pid);
        if (runId !== undefined && commandOf(pid) === 'sleep 600') seen.set(pid, runId);
      }
    }, 200);
    let outcome: Awaited<ReturnType<typeof run>>;
    try {
      outcome = await run('bash-setsid', ['--permissions', 'strict', '--allow', 'Bash', '--deadline', '20s']);
    } finally {
      clearInterval(watcher);
    }
    const { value, answer } = outcome;
    expect(value.outcome).toBe('interrupted');
    expect(value.timedOut).toBe(true);
    expect(answer.exitCode).toBe(1);
    const ours = [...seen].filter(([, runId]) => runId === value.runId).map(([pid]) => pid);
    expect(ours.length).toBe(1);
    for (const pid of ours) expect(existsSync(`/proc/${pid}`)).toBe(false);
    expect(processIds().filter((pid) => runIdOf(pid) === value.runId)).toEqual([]);
    expect(value.posture.survivors).toEqual([]);
  });
});

function processIds(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^[0-9]+$/.test(name))
    .map(Number);
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

function runIdOf(pid: number): string | undefined {
  try {
    const entry = readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .find((line) => line.startsWith('STATECRAFT_RUN_ID='));
    return entry?.slice('STATECRAFT_RUN_ID='.length);
  } catch {
    return undefined;
  }
}

/** A process's peak resident set so far (VmHWM), or undefined once it is gone. */
function peakResidentBytesOf(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}
