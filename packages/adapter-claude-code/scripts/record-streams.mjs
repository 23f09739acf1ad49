#!/usr/bin/env node
// Regenerates testdata/stream/*.jsonl: the native stream-json of the pinned `claude`, driven by the
// model double, invoked exactly as the adapter invokes it (buildClaudeArgv + settingsDocumentFor).
// Run after `npm run build`:  node packages/adapter-claude-code/scripts/record-streams.mjs
// Nothing leaves 127.0.0.1; the only credential is the double's dummy key. Provenance: testdata/stream/README.md.
// STATECRAFT_RECORD_INTO=<dir> writes elsewhere (the test that the committed streams are current).
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MODEL_DOUBLE_API_KEY,
  buildClaudeArgv,
  loadScenario,
  pinnedClaudePath,
  recordedStreamsDirectory,
  scenarioPath,
  settingsDocumentFor,
  startModelDouble,
} from '@statecraft/adapter-claude-code';
import { replacePaths, runProviderOnce, writeRecording } from '../../adapter/scripts/record-native-stream.mjs';

const noLimits = { maxTurns: null, allow: [], deny: [], removeTools: [], hooks: [] };
const BLOCKING_HOOK = 'echo blocked-by-statecraft-hook >&2; exit 2';

/** One recording each: scenario, the request limits, and whether the double is reachable at all. */
const RECORDINGS = [
  { name: 'completed', scenario: 'completed', limits: noLimits, loggedIn: true },
  { name: 'denied', scenario: 'bash-touch', limits: { ...noLimits, deny: ['Bash(touch:*)'] }, loggedIn: true },
  { name: 'max-turns', scenario: 'bash-echo', limits: { ...noLimits, maxTurns: 1 }, loggedIn: true },
  { name: 'not-logged-in', scenario: 'completed', limits: noLimits, loggedIn: false },
  {
    name: 'hook-blocked',
    scenario: 'bash-touch',
    limits: { ...noLimits, allow: ['Bash(touch:*)'], hooks: [{ when: 'before-tool', tool: 'Bash', command: BLOCKING_HOOK }] },
    loggedIn: true,
  },
  { name: 'tool-removed', scenario: 'completed', limits: { ...noLimits, removeTools: ['Bash'] }, loggedIn: true },
];

/** Temporary paths and per-run ids are replaced so a re-recording differs only where claude did. */
function redact(text, places) {
  return (
    replacePaths(text, places)
      .replace(/"(session_id|uuid|hook_id)":"[0-9a-f-]{36}"/g, '"$1":"00000000-0000-4000-8000-000000000000"')
      .replace(/"timestamp":"[^"]+"/g, '"timestamp":"2026-11-30T00:00:00.000Z"')
      .replace(/"messaging_socket_path":"[^"]+"/g, '"messaging_socket_path":"/tmp/cc-socks/0.sock"')
      // The per-project memory directory encodes the (temporary) workspace path.
      .replace(/\/\.claude\/projects\/[^/"]+\//g, '/.claude/projects/-workspace/')
      // Timings of this run, and the id claude invents for its synthetic "Not logged in" message.
      .replace(/"(duration_ms|duration_api_ms|ttft_ms|ttft_stream_ms|time_to_request_ms|first_content_frame_ms)":\d+/g, '"$1":0')
      .replace(/"id":"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/g, '"id":"00000000-0000-4000-8000-000000000000"')
  );
}

async function record({ name, scenario, limits, loggedIn }) {
  const root = await mkdtemp(join(tmpdir(), 'statecraft-record-'));
  const workspace = join(root, 'workspace');
  const home = join(root, 'home');
  const bin = join(root, 'bin');
  await Promise.all([mkdir(workspace), mkdir(home), mkdir(bin)]);
  await symlink(pinnedClaudePath(), join(bin, 'claude'));
  const settingsPath = join(root, 'settings.json');
  await writeFile(settingsPath, JSON.stringify(settingsDocumentFor(limits)), { mode: 0o600 });
  const argv = buildClaudeArgv({ settingsPath, maxTurns: limits.maxTurns, removeTools: limits.removeTools, permissionMode: 'default' });
  if (argv.kind !== 'argv') throw new Error(argv.message);
  const double = await startModelDouble(await loadScenario(scenarioPath(scenario)));
  const environment = { PATH: `${bin}:/usr/bin:/bin`, HOME: home };
  if (loggedIn) Object.assign(environment, { ANTHROPIC_BASE_URL: double.baseUrl, ANTHROPIC_API_KEY: MODEL_DOUBLE_API_KEY });
  const { stdout, code } = await runProviderOnce(join(bin, 'claude'), argv.argv, { cwd: workspace, env: environment });
  await double.stop();
  const text = redact(stdout, [
    [settingsPath, '/tmp/statecraft-claude-settings/settings.json'],
    [workspace, '/workspace'],
    [home, '/home/statecraft'],
    [root, '/tmp/statecraft-record'],
  ]);
  await writeRecording(recordedStreamsDirectory(), name, text);
  await rm(root, { recursive: true, force: true });
  process.stdout.write(`${name}: ${text.split('\n').filter(Boolean).length} lines, claude exit ${code}, double saw ${double.requests.length} requests\n`);
}

for (const recording of RECORDINGS) await record(recording);
