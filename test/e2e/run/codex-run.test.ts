import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ScenarioSchema,
  loadScenarios,
  pinnedCodexPath,
  replayCodexPath,
  scenariosDirectory,
  startModelDouble,
  writeAlteredStreams,
} from '@statecraft/adapter-codex';
import type { ModelDouble } from '@statecraft/adapter-codex';
import { createProductHome, createSampleRepository } from '../../fixtures/sample-repository.js';
import { finishedRun, parseJson, runStatecraft, startStatecraft } from '../../fixtures/statecraft-cli.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

/** Every temporary directory this file makes, removed when it is done. */
const scratch = scratchDirectories();

// Issue 13, done-when, through the built CLI: the real pinned codex behind the bundled adapter
// (`--adapter codex`), talking only to the Responses-API model double on 127.0.0.1, inside
// statecraft's evidence boundary (the default). The operator's PATH holds `codex` (a symlink to
// the pinned launcher) and node; the double's address and a test key are the operator's
// environment, carried into the child by the adapter's manifest (R5.4). No network, no real key.

interface RunJson {
  outcome: string;
  cause: string;
  timedOut: boolean;
  streamDiagnostic: { kind: string } | string;
  refusalCount: number;
  refusals: Array<{ tool: string; verbatim: { tool_input?: { command?: string }; rule?: string; reason?: string; why?: string } }>;
  providerClaim: { status: string; isError: boolean | string; reason: string } | string;
  cost: number | string;
  workspace: string;
  provider: { name: string; version: string };
  posture: { survivors: unknown[]; qualification: { verdict: string }; boundary: { mechanism: string } };
  artifacts: { stream: { path: string } };
}

let double: ModelDouble;
let bin: string;
let altered: Awaited<ReturnType<typeof writeAlteredStreams>>;
beforeAll(async () => {
  double = await startModelDouble(await loadScenarios(scenariosDirectory()));
  bin = await scratch.make('statecraft-codex-bin-');
  await symlink(pinnedCodexPath(), join(bin, 'codex'));
  altered = await writeAlteredStreams(await scratch.make('statecraft-codex-altered-'));
});
afterAll(async () => {
  await double.stop();
});

async function setUp(scenario: string, path?: string, modelDouble: ModelDouble = double) {
  const repository = await createSampleRepository();
  scratch.keep(repository);
  const home = await createProductHome();
  scratch.keep(home);
  const operatorHome = await scratch.make('statecraft-codex-operator-home-');
  const env: Record<string, string> = {
    PATH: path ?? `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: operatorHome,
    OPENAI_BASE_URL: modelDouble.baseUrlFor(scenario),
    OPENAI_API_KEY: modelDouble.apiKey,
  };
  return { repository, home: home.path, env, operatorHome };
}

const runArgs = (repository: string, deadline: string, extra: readonly string[]) => [
  'run',
  repository,
  '--adapter',
  'codex',
  '--prompt',
  'Do the scripted work.',
  '--deadline',
  deadline,
  '--json',
  ...extra,
];

async function run(scenario: string, extra: readonly string[] = [], path?: string, deadline = '120s', modelDouble: ModelDouble = double) {
  const { repository, home, env, operatorHome } = await setUp(scenario, path, modelDouble);
  const answer = await runStatecraft(runArgs(repository.path, deadline, extra), { home, env, timeoutMs: 150_000 });
  return { answer, value: parseJson<RunJson>(answer), repository, operatorHome };
}

/** A fake `codex` on PATH: the replaying stand-in, printing the given native stream. */
async function fakeCodex(stream: string, hang = false): Promise<string> {
  const directory = await scratch.make('statecraft-codex-fake-');
  const settings = `STATECRAFT_REPLAY_NATIVE_STREAM='${stream}'${hang ? ' STATECRAFT_REPLAY_HANG=1' : ''}`;
  await writeFile(join(directory, 'codex'), `#!/bin/sh\n${settings} exec '${process.execPath}' '${replayCodexPath()}' "$@"\n`, { mode: 0o755 });
  return `${directory}:${dirname(process.execPath)}:/usr/bin:/bin`;
}

/** Processes running `sleep 600` whose working directory is the given workspace (Codex's sandboxed command). */
function sleepersIn(workspace: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return cmdline === 'sleep\u0000600\u0000' && readlinkSync(`/proc/${pid}/cwd`) === workspace ? [Number(pid)] : [];
      } catch {
        return [];
      }
    });
}

describe('statecraft run --adapter codex with the pinned codex and its model double', () => {
  it('records a denied command as refused, the denied command verbatim in the refusal and the provider claim kept (R14.2, R8.2)', async () => {
    const { answer, value } = await run('exec-touch', ['--deny', 'Bash(touch:*)']);
    expect(value.outcome).toBe('refused');
    expect(value.refusalCount).toBe(1);
    expect(value.refusals[0]?.tool).toBe('Bash');
    expect(value.refusals[0]?.verbatim).toMatchObject({ reason: 'deny-rule', rule: 'Bash(touch:*)', tool_input: { command: 'touch statecraft-marker.txt' } });
    expect(value.providerClaim).toMatchObject({ status: 'turn.completed', isError: false, reason: 'completed' });
    expect(existsSync(join(value.workspace, 'statecraft-marker.txt'))).toBe(false);
    expect(value.posture.boundary.mechanism).toBe('bwrap');
    expect(answer.exitCode).toBe(1);
  });

  it('denies, under a deny rule, the program it names however it is hidden: a wrapper, a shell, a path, a redirection or keyword before it, a line continuation, a tty session fed through write_stdin — each refusal saying why, no file made (hostile finding C2, R14.2)', async () => {
    // The model's moves against --deny 'Bash(touch:*)'. The node REPL is a tty session of a program
    // that is not a wrapper: the hook lets it start, and only Codex's tty switch stops what is typed in.
    const evasions = ScenarioSchema.parse({
      name: 'deny-evasion',
      description:
        'Runs touch past a Bash(touch:*) rule: through sh -c, env, its path, a redirection before it, a descriptor duplication, a shell fed a here-string, case, coproc, a line continuation, a bash tty session and a node tty session fed through write_stdin.',
      replies: [
        { kind: 'exec', cmd: 'sh -c "touch evade-sh.txt"' },
        { kind: 'exec', cmd: 'env touch evade-env.txt' },
        { kind: 'exec', cmd: '/usr/bin/touch evade-path.txt' },
        // A reviewer's six (each ran touch through the built dist before the reading was mended).
        { kind: 'exec', cmd: '>/dev/null touch evade-redirect.txt' },
        { kind: 'exec', cmd: '2>&1 touch evade-descriptor.txt' },
        { kind: 'exec', cmd: 'bash<<<"touch evade-here-string.txt"' },
        { kind: 'exec', cmd: 'case a in a) touch evade-case.txt;; esac' },
        { kind: 'exec', cmd: 'coproc touch evade-coproc.txt' },
        { kind: 'exec', cmd: 'tou\\\nch evade-continuation.txt' },
        { kind: 'exec', cmd: 'bash', tty: true, yieldTimeMs: 1000 },
        { kind: 'write-stdin', chars: 'touch evade-bash-stdin.txt; exit\n', yieldTimeMs: 1000 },
        { kind: 'exec', cmd: process.execPath, tty: true, yieldTimeMs: 2000 },
        { kind: 'write-stdin', chars: "require('fs').writeFileSync('evade-node-stdin.txt', '');\n.exit\n", yieldTimeMs: 2000 },
        { kind: 'text', text: 'All done.' },
      ],
    });
    const evasionDouble = await startModelDouble(evasions);
    try {
      const { answer, value } = await run('deny-evasion', ['--deny', 'Bash(touch:*)'], undefined, '120s', evasionDouble);
      const made = ['sh', 'env', 'path', 'redirect', 'descriptor', 'here-string', 'case', 'coproc', 'continuation', 'bash-stdin', 'node-stdin']
        .map((name) => `evade-${name}.txt`)
        .filter((name) => existsSync(join(value.workspace, name)));
      expect(made).toEqual([]);
      // The record keeps the first few refusals; the kept stream holds them all.
      const streamed = (await readFile(value.artifacts.stream.path, 'utf8'))
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { type: string; verbatim?: RunJson['refusals'][number]['verbatim'] })
        .flatMap((event) => (event.type === 'refusal' && event.verbatim !== undefined ? [event.verbatim] : []));
      expect(value.refusalCount).toBe(streamed.length);
      expect(streamed.map((verbatim) => [verbatim.tool_input?.command, verbatim.reason])).toEqual([
        ['sh -c "touch evade-sh.txt"', 'fail-closed'],
        ['env touch evade-env.txt', 'fail-closed'],
        ['/usr/bin/touch evade-path.txt', 'deny-rule'],
        ['>/dev/null touch evade-redirect.txt', 'deny-rule'],
        ['2>&1 touch evade-descriptor.txt', 'deny-rule'],
        ['bash<<<"touch evade-here-string.txt"', 'fail-closed'],
        ['case a in a) touch evade-case.txt;; esac', 'fail-closed'],
        ['coproc touch evade-coproc.txt', 'deny-rule'],
        ['tou\\\nch evade-continuation.txt', 'deny-rule'],
        ['bash', 'fail-closed'],
      ]);
      expect(streamed.map((verbatim) => verbatim.why)).toEqual([
        expect.stringContaining('it runs sh, which runs another program the deny rules cannot see through'),
        expect.stringContaining('it runs env'),
        'denied by the rule Bash(touch:*)',
        'denied by the rule Bash(touch:*)',
        'denied by the rule Bash(touch:*)',
        expect.stringContaining('it runs bash'),
        expect.stringContaining('it opens with the shell keyword case'),
        'denied by the rule Bash(touch:*)',
        'denied by the rule Bash(touch:*)',
        expect.stringContaining('it runs bash'),
      ]);
      expect(value.outcome).toBe('refused');
      expect(answer.exitCode).toBe(1);
    } finally {
      await evasionDouble.stop();
    }
  }, 150_000);

  it('records a clean text answer as completed with cost unknown, never zero, the provider named by its pinned version (R4 row 5, R8.3)', async () => {
    const { answer, value } = await run('completed');
    expect(value.outcome).toBe('completed');
    expect(value.cost).toBe('unknown');
    expect(value.provider).toMatchObject({ name: 'codex', version: '0.171.0' });
    expect(answer.exitCode).toBe(0);
  });

  it("runs Codex's own sandbox nested in statecraft's boundary without the operator's ~/.codex: the write in the workspace lands, the one in HOME does not, and ~/.codex is not made", async () => {
    const { value, operatorHome } = await run('exec-write-outside');
    expect(value.outcome).toBe('completed');
    expect(existsSync(join(value.workspace, 'statecraft-inside.txt'))).toBe(true);
    // HOME is not writable under statecraft's boundary, so both confinements stop this write; the
    // suite's row 6 gives the session a HOME the boundary lets it write, where only Codex's can.
    expect(existsSync(join(operatorHome, 'statecraft-outside.txt'))).toBe(false);
    // ~/.codex is no managed path: the supervisor neither makes it nor binds it writable.
    expect(existsSync(join(operatorHome, '.codex'))).toBe(false);
    // The private CODEX_HOME lives in the attempt's TMPDIR, never in the operator's ~/.codex (R10.1).
    expect(existsSync(join(operatorHome, '.codex', 'statecraft-attempts'))).toBe(false);
  });

  it('keeps a denial as a refusal when the session then hangs until the deadline kills it: no native line follows the denial, the kill does not lose it, and nothing is left in ~/.codex (R8.2, R14.2, R10.1)', async () => {
    const { value, operatorHome } = await run('exec-touch-hang', ['--deny', 'Bash(touch:*)'], undefined, '20s');
    expect(value.outcome).toBe('interrupted');
    expect(value.timedOut).toBe(true);
    expect(value.refusalCount).toBe(1);
    expect(value.refusals[0]?.verbatim).toMatchObject({ reason: 'deny-rule', rule: 'Bash(touch:*)', tool_input: { command: 'touch statecraft-marker.txt' } });
    expect(existsSync(join(value.workspace, 'statecraft-marker.txt'))).toBe(false);
    expect(existsSync(join(operatorHome, '.codex', 'statecraft-attempts'))).toBe(false);
  }, 90_000);

  it('records an HTTP error from the model as interrupted (provider-error), never completed, the claim kept', async () => {
    const { value } = await run('http-error');
    expect(value.outcome).toBe('interrupted');
    expect(value.cause).toBe('provider-error');
    expect(value.providerClaim).toMatchObject({ status: 'turn.failed', isError: true });
  });

  it("ends a hang as interrupted at the deadline with no survivor, the descendant Codex's sandbox started included (R7.2, R7.3)", async () => {
    const { repository, home, env } = await setUp('exec-setsid');
    const started = startStatecraft(runArgs(repository.path, '20s', []), { home, env, timeoutMs: 90_000 });
    const workspaces = join(repository.path, '.statecraft', 'state', 'workspaces');
    let seen: number[] = [];
    for (let waited = 0; waited < 18_000 && seen.length === 0; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const names = existsSync(workspaces) ? readdirSync(workspaces) : [];
      seen = names.flatMap((name) => sleepersIn(join(workspaces, name)));
    }
    const answer = await finishedRun(started);
    const value = parseJson<RunJson>(answer);
    expect(seen.length).toBeGreaterThan(0);
    expect(value.outcome).toBe('interrupted');
    expect(value.timedOut).toBe(true);
    expect(value.posture.survivors).toEqual([]);
    expect(seen.filter((pid) => existsSync(`/proc/${pid}`))).toEqual([]);
  }, 120_000);
});

describe('statecraft run --adapter codex with fake codex providers speaking its native wire', () => {
  it.each([
    ['a malformed line', 'malformed', 'malformed'],
    // Cut mid-line: the last line is a fragment, which no reader can take as an event.
    ['a truncated stream', 'truncated', 'malformed'],
    ['a missing turn.completed', 'no-result', 'no-result'],
    ['invalid UTF-8', 'read-failure', 'read-failure'],
  ] as const)('classifies %s as interrupted (%s → %s), labelled unqualified (R7.5, R3.2)', async (_title, alteration, diagnostic) => {
    const { value } = await run('completed', [], await fakeCodex(altered[alteration]));
    expect(value.outcome).toBe('interrupted');
    expect(value.streamDiagnostic).toMatchObject({ kind: diagnostic });
    expect(value.provider.version).toBe('0.171.0+replay');
    expect(value.posture.qualification.verdict).toBe('unqualified');
  });

  it('classifies a result followed by a hang as completed: the ending is trusted, the provider stopped after it, labelled unqualified (R7.4, R3.2)', async () => {
    const { value } = await run('completed', [], await fakeCodex(altered['no-cost'], true), '60s');
    expect(value.outcome).toBe('completed');
    expect(value.timedOut).toBe(false);
    expect(value.posture.survivors).toEqual([]);
    expect(value.posture.qualification.verdict).toBe('unqualified');
    const stream = await readFile(value.artifacts.stream.path, 'utf8');
    expect(stream).toContain('"terminal":"completed"');
  }, 90_000);
});
