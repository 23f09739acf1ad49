import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { DriverScenario, Provocation, SuiteDriver } from '@statecraft/adapter';
import { startModelDouble } from './model-double/server.js';
import type { ModelDouble } from './model-double/server.js';
import { loadScenarios } from './model-double/scenario.js';
import { pinnedCodexPath, replayCodexPath, scenariosDirectory } from './paths.js';
import { writeAlteredStreams } from './suite/altered-streams.js';
import type { StreamAlteration } from './suite/altered-streams.js';
import { measureCodexTokens } from './suite/measure-tokens.js';

export interface CodexDriverOptions {
  /** The provider binary qualified with the adapter (the pair, R3.1); default `codex` on PATH, else the pinned one. */
  provider?: string;
}

/** Long enough for codex to start and run its exec call; the deadline is the subject of row 3. */
export const CODEX_HANG_DEADLINE_MS = 20_000;

const PROMPT = 'Do the scripted work.';

/** The one command row 3's scenario runs (qualification/scenarios/codex/exec-setsid.json). */
const SETSID_RULE = 'Bash(setsid sleep 600)';

function defaultProvider(): string | undefined {
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    if (directory !== '' && existsSync(join(directory, 'codex'))) return join(directory, 'codex');
  }
  try {
    const pinned = pinnedCodexPath();
    return existsSync(pinned) ? pinned : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How the negative suite provokes the Codex adapter (R4, R14.1): live sessions of the real codex
 * against the Responses-API model double for behaviour a model causes (a refusal through the
 * adapter's hook, a hang with a descendant in Codex's sandbox, a completed run, each declared
 * token, row 9's attack on the records through Codex's own shell tool); recorded streams, altered, replayed through a real child standing in for codex for stream
 * defects a healthy provider never shows (rows 4 and 5).
 */
export function codexSuiteDriver(options: CodexDriverOptions = {}): SuiteDriver {
  let double: ModelDouble | undefined;
  let scratch: { directory: string; altered: Record<StreamAlteration, string> } | undefined;
  const provider = options.provider ?? defaultProvider();

  const live = (scenario: string, limits: Provocation['limits'] = {}, deadlineMs?: number, environment: Record<string, string> = {}): Provocation => {
    if (double === undefined) throw new Error('the codex driver was not set up: its model double is not running');
    return {
      prompt: PROMPT,
      // The double is reached only through the constructed environment, with a test credential; its
      // address and key are drawn per run and name no scenario, so the provider cannot tell the
      // suite's cases apart from what it is given (hostile finding C6).
      environment: { OPENAI_BASE_URL: double.baseUrlFor(scenario), OPENAI_API_KEY: double.apiKey, ...environment },
      limits: limits ?? {},
      evidence: 'live',
      ...(deadlineMs === undefined ? {} : { deadlineMs }),
    };
  };
  const replayed = (alteration: StreamAlteration): Provocation => {
    if (scratch === undefined) throw new Error('the codex driver was not set up: no altered streams');
    return { prompt: PROMPT, environment: { STATECRAFT_REPLAY_NATIVE_STREAM: scratch.altered[alteration] }, provider: replayCodexPath(), evidence: 'replayed' };
  };

  const provocations: Record<DriverScenario, () => Provocation> = {
    complete: () => live('completed'),
    // A deny rule: the adapter's hook denies and records it, so the refusal survives as evidence (R14.2).
    refuse: () => live('exec-touch', { deny: ['Bash(touch:*)'] }),
    // A descendant in a new session inside Codex's own sandbox, then a model that never answers:
    // killed at the deadline with the whole tree (R7.3). The suite's requests are strict, so the one
    // command the row needs is allowed by rule, as an operator would under either boundary (decision 0341).
    hang: () => live('exec-setsid', { allow: [SETSID_RULE] }, CODEX_HANG_DEADLINE_MS),
    malformed: () => replayed('malformed'),
    'read-failure': () => replayed('read-failure'),
    'no-result': () => replayed('no-result'),
    'no-cost': () => replayed('no-cost'),
  };

  return {
    name: 'codex',
    ...(provider === undefined ? {} : { provider: { executable: provider } }),
    async setUp() {
      double = await startModelDouble(await loadScenarios(scenariosDirectory()));
      const directory = await mkdtemp(join(tmpdir(), 'statecraft-codex-driver-'));
      scratch = { directory, altered: await writeAlteredStreams(directory) };
    },
    async tearDown() {
      await double?.stop();
      if (scratch !== undefined) await rm(scratch.directory, { recursive: true, force: true });
      double = undefined;
      scratch = undefined;
    },
    provocation: (scenario) => provocations[scenario](),
    // Row 9: the hostile moves as one exec_command call aimed at the targets the row names in the
    // environment, with no deny rule and the shell allowed by rule (the request is strict), so the
    // adapter's hook lets it through and what stops the moves is the boundary and Codex's sandbox.
    attack: () => live('attack-records', { allow: ['Bash'] }),
    measureDeclaredTokens: (context) => measureCodexTokens(context, { live }),
  };
}
