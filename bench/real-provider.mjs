// `statecraft run` of the real pinned `claude` behind the bundled adapter, against the same bare
// `claude` invocation, both talking to the model double on 127.0.0.1 (issue 10 item 7: added
// ≤ 300 ms median). Rounds are interleaved so load on the machine falls on both alike. Thirty-one
// of them (eight, then fifteen, until 2026-12-01): `claude`'s own run on the double varies by
// ±300 ms from one invocation to the next — bimodal, in two clusters ~250 ms apart — and fifteen
// rounds' medians of the added time still moved from 267 to 371 ms between four runs of the same code.
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  MODEL_DOUBLE_API_KEY,
  claudeCodeAdapterPath,
  loadScenarios,
  pinnedClaudePath,
  scenariosDirectory,
  startModelDouble,
} from '@statecraft/adapter-claude-code';
import { median } from './common.mjs';
import { STATECRAFT, productHome, sampleRepository, timed } from './run-statecraft-helpers.mjs';

const PROMPT = 'Do the scripted work.';
const SCENARIO = 'completed';

export async function measureRealProvider(rounds = 31) {
  const double = await startModelDouble(await loadScenarios(scenariosDirectory()));
  try {
    const repository = sampleRepository();
    const home = productHome();
    const bin = mkdtempSync(join(tmpdir(), 'statecraft-bench-bin-'));
    symlinkSync(pinnedClaudePath(), join(bin, 'claude'));
    const operatorHome = mkdtempSync(join(tmpdir(), 'statecraft-bench-operator-'));
    const env = {
      PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: operatorHome,
      STATECRAFT_HOME: home,
      ANTHROPIC_BASE_URL: double.baseUrlFor(SCENARIO),
      ANTHROPIC_API_KEY: MODEL_DOUBLE_API_KEY,
    };
    // The bare invocation is the adapter's own: the same flags (the sandboxed default inside the
    // boundary asks for claude's bypass mode, which it allows as root only with IS_SANDBOX) and an
    // equivalent settings document.
    const settings = join(mkdtempSync(join(tmpdir(), 'statecraft-bench-settings-')), 'settings.json');
    writeFileSync(settings, JSON.stringify({ permissions: { allow: [], deny: [] } }));
    const bareArgs = [
      '--print',
      '--output-format',
      'stream-json',
      '--verbose',
      '--include-hook-events',
      '--settings',
      settings,
      '--permission-mode',
      'bypassPermissions',
    ];
    const bareEnv = { ...env, IS_SANDBOX: '1' };
    const runArgs = ['run', repository, '--adapter', claudeCodeAdapterPath(), '--prompt', PROMPT, '--json'];
    // One warm-up of each, not counted: the first run pays the file cache and the digest cache's miss.
    await timed(join(bin, 'claude'), bareArgs, { env: bareEnv, input: PROMPT, cwd: repository });
    await timed(STATECRAFT, runArgs, { env });
    const bare = [];
    const run = [];
    for (let round = 0; round < rounds; round += 1) {
      bare.push((await timed(join(bin, 'claude'), bareArgs, { env: bareEnv, input: PROMPT, cwd: repository })).ms);
      const answer = await timed(STATECRAFT, runArgs, { env });
      if (answer.code !== 0) throw new Error(`statecraft run exited ${answer.code}:\n${answer.stdout}`);
      run.push(answer.ms);
    }
    const bareMedianMs = median(bare);
    const runMedianMs = median(run);
    return { rounds, bareMedianMs, runMedianMs, addedMs: runMedianMs - bareMedianMs, ratio: runMedianMs / bareMedianMs };
  } finally {
    await double.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await measureRealProvider()));
