import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { DriverScenario, Provocation, SuiteDriver } from '@statecraft/adapter';
import { MODEL_DOUBLE_API_KEY, startModelDouble } from './model-double/server.js';
import type { ModelDouble } from './model-double/server.js';
import { loadScenarios } from './model-double/scenario.js';
import { pinnedClaudePath, replayClaudePath, scenariosDirectory } from './paths.js';
import { writeAlteredStreams } from './suite/altered-streams.js';
import type { StreamAlteration } from './suite/altered-streams.js';
import { measureClaudeCodeTokens } from './suite/measure-tokens.js';

export interface ClaudeCodeDriverOptions {
  /** The provider binary qualified with the adapter (the pair, R3.1); default `claude` on PATH, else the pinned one. */
  provider?: string;
}

/** Long enough for claude to start and begin its Bash call; the deadline is the subject of row 3. */
export const CLAUDE_HANG_DEADLINE_MS = 20_000;

const PROMPT = 'Do the scripted work.';

function defaultProvider(): string | undefined {
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    if (directory !== '' && existsSync(join(directory, 'claude'))) return join(directory, 'claude');
  }
  try {
    const pinned = pinnedClaudePath();
    return existsSync(pinned) ? pinned : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How the negative suite provokes the Claude Code adapter (R4, R10.5): live sessions of the real
 * provider against the model double for behaviour a model causes (a refusal, a hang, a completed
 * run, each declared token); recorded streams, altered, replayed through a real child standing in
 * for claude for stream defects a healthy provider never shows (rows 4 and 5).
 */
export function claudeCodeSuiteDriver(options: ClaudeCodeDriverOptions = {}): SuiteDriver {
  let double: ModelDouble | undefined;
  let altered: { directory: string; paths: Record<StreamAlteration, string> } | undefined;
  const provider = options.provider ?? defaultProvider();

  const live = (scenario: string, limits: Provocation['limits'] = {}, deadlineMs?: number): Provocation => {
    if (double === undefined) throw new Error('the claude-code driver was not set up: its model double is not running');
    return {
      prompt: PROMPT,
      // The double is reached only through the constructed environment, with a test credential.
      environment: { ANTHROPIC_BASE_URL: double.baseUrlFor(scenario), ANTHROPIC_API_KEY: MODEL_DOUBLE_API_KEY },
      limits: limits ?? {},
      evidence: 'live',
      ...(deadlineMs === undefined ? {} : { deadlineMs }),
    };
  };
  const replayed = (alteration: StreamAlteration): Provocation => {
    if (altered === undefined) throw new Error('the claude-code driver was not set up: no altered streams');
    return {
      prompt: PROMPT,
      environment: { STATECRAFT_REPLAY_NATIVE_STREAM: altered.paths[alteration] },
      provider: replayClaudePath(),
      evidence: 'replayed',
    };
  };

  const provocations: Record<DriverScenario, () => Provocation> = {
    complete: () => live('completed'),
    // A deny rule, so the refusal survives as evidence (R10.3).
    refuse: () => live('bash-touch', { deny: ['Bash(touch:*)'] }),
    // A Bash call that starts a setsid descendant and blocks: killed at the deadline with its tree
    // (R7.3). Bash is allowed outright: 2.1.328 refuses a `Bash(setsid:*)` rule ("What 'setsid'
    // starts can't be checked before it runs").
    hang: () => live('bash-setsid', { allow: ['Bash'] }, CLAUDE_HANG_DEADLINE_MS),
    malformed: () => replayed('malformed'),
    'read-failure': () => replayed('read-failure'),
    'no-result': () => replayed('no-result'),
    'no-cost': () => replayed('no-cost'),
  };

  return {
    name: 'claude-code',
    ...(provider === undefined ? {} : { provider: { executable: provider } }),
    async setUp() {
      double = await startModelDouble(await loadScenarios(scenariosDirectory()));
      const directory = await mkdtemp(join(tmpdir(), 'statecraft-claude-code-altered-'));
      altered = { directory, paths: await writeAlteredStreams(directory) };
    },
    async tearDown() {
      await double?.stop();
      if (altered !== undefined) await rm(altered.directory, { recursive: true, force: true });
      double = undefined;
      altered = undefined;
    },
    provocation: (scenario) => provocations[scenario](),
    // Row 9: the hostile moves as one shell command aimed at the targets the row names in the
    // environment; Bash allowed outright, so the boundary, not claude's prompt, is what stops them.
    attack: () => live('attack-records', { allow: ['Bash'] }),
    measureDeclaredTokens: (context) => measureClaudeCodeTokens(context, { live: (scenario, limits) => live(scenario, limits ?? {}) }),
  };
}
