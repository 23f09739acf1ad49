#!/usr/bin/env node
// Regenerates testdata/stream/*.jsonl: the native `codex exec --json` stream of the pinned codex,
// driven by the model double, invoked exactly as the adapter invokes it (buildCodexArgv +
// configDocumentFor in a private CODEX_HOME, the hook being the bundled adapter's own `hook` verb).
// Run after `npm run build`:  node packages/adapter-codex/scripts/record-streams.mjs
// Nothing leaves 127.0.0.1; the only credential is the double's test key, drawn per run. Provenance: testdata/stream/README.md.
// STATECRAFT_RECORD_INTO=<dir> writes elsewhere (the test that the committed streams are current).
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  buildCodexArgv,
  codexAdapterPath,
  configDocumentFor,
  encodeHookPolicy,
  loadScenario,
  pinnedCodexPath,
  recordedStreamsDirectory,
  scenarioPath,
  startModelDouble,
} from '@statecraft/adapter-codex';
import { replacePaths, runProviderOnce, writeRecording } from '../../adapter/scripts/record-native-stream.mjs';

const BLOCKING_HOOK = 'echo blocked-by-statecraft-hook >&2; exit 2';

/**
 * One recording each: scenario and the hook policy's rules. Not recorded: `exec-write-outside`, whose
 * stream is not reproducible — the write Codex's sandbox fails sometimes leaves an item and sometimes
 * none (docs/facts.md item 24) — so it is measured through files, not a recorded stream.
 */
const RECORDINGS = [
  { name: 'completed', scenario: 'completed', deny: [], hooks: [] },
  { name: 'denied', scenario: 'exec-touch', deny: ['Bash(touch:*)'], hooks: [] },
  { name: 'allowed', scenario: 'exec-touch', deny: [], hooks: [] },
  { name: 'hook-blocked', scenario: 'exec-touch', deny: [], hooks: [{ tool: 'Bash', command: BLOCKING_HOOK }] },
  { name: 'http-error', scenario: 'http-error', deny: [], hooks: [] },
];

/** Temporary paths and per-run ids are replaced so a re-recording differs only where codex did. */
function redact(text, places) {
  return replacePaths(text, places).replace(/"thread_id":"[0-9a-f-]{36}"/g, '"thread_id":"00000000-0000-7000-8000-000000000000"');
}

function quote(word) {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

async function record({ name, scenario, deny, hooks }) {
  const root = await mkdtemp(join(tmpdir(), 'statecraft-record-'));
  const workspace = join(root, 'workspace');
  const home = join(root, 'home');
  // The adapter's layout (codex-home.ts): a private directory in the attempt's TMPDIR holding
  // CODEX_HOME, Codex's own TMPDIR beside it, and the denial channel.
  const temporary = join(root, 'tmp');
  const privateDirectory = join(temporary, 'statecraft-codex-recorded');
  const codexHome = join(privateDirectory, 'codex-home');
  const codexTemporary = join(privateDirectory, 'codex-tmp');
  await Promise.all([mkdir(workspace), mkdir(home), mkdir(codexHome, { recursive: true }), mkdir(codexTemporary, { recursive: true })]);
  const double = await startModelDouble(await loadScenario(scenarioPath(scenario)));
  const channel = join(privateDirectory, 'statecraft-denials.jsonl');
  // Sandboxed, the mode of a run inside the boundary: the hook applies only the recording's rules and hooks.
  const policy = encodeHookPolicy({ mode: 'sandboxed', deny, allow: [], hooks, channel });
  const hookCommand = [process.execPath, codexAdapterPath(), 'hook', '--policy', policy].map(quote).join(' ');
  const ttySessions = deny.length > 0 || hooks.length > 0 ? 'disabled' : 'enabled';
  const configuration = { model: 'provider-default', sandboxMode: 'workspace-write', approvalPolicy: 'never', baseUrl: double.baseUrl, ttySessions };
  await writeFile(join(codexHome, 'config.toml'), configDocumentFor({ configuration, hookCommand }), { mode: 0o600 });
  const environment = {
    PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: home,
    TMPDIR: codexTemporary,
    CODEX_HOME: codexHome,
    OPENAI_API_KEY: double.apiKey,
  };
  const { stdout, code } = await runProviderOnce(pinnedCodexPath(), buildCodexArgv(workspace), { cwd: workspace, env: environment });
  await double.stop();
  const denials = await readFile(channel, 'utf8').catch(() => '');
  const text = redact(stdout, [
    [double.baseUrl, 'http://127.0.0.1:0/v1'],
    [workspace, '/workspace'],
    [home, '/home/statecraft'],
    [root, '/tmp/statecraft-record'],
  ]);
  await writeRecording(recordedStreamsDirectory(), name, text);
  await rm(root, { recursive: true, force: true });
  const lines = text.split('\n').filter(Boolean).length;
  process.stdout.write(
    `${name}: ${lines} lines, codex exit ${code}, double saw ${double.requests.length} requests, ${denials.split('\n').filter(Boolean).length} denial(s) in the channel\n`,
  );
}

for (const recording of RECORDINGS) await record(recording);
