// (f) Supervisor memory under a refusal flood (issue 9: ≤ 150 MB at 600 MiB of refusals). The
// hostile adapter of test/fixtures/adapters writes 600 MiB of valid ~1 KiB refusal events; the
// `statecraft run` process reports its own peak RSS (VmHWM) through a preload when it exits.
// Then `run list` and `run show` on that target, which must stay small and fast too.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STATECRAFT, productHome, sampleRepository, timed } from './run-statecraft-helpers.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const FLOOD_ADAPTER = join(root, 'test', 'fixtures', 'adapters', 'refusal-flood-adapter.mjs');
const PEAK_PRELOAD = join(root, 'test', 'fixtures', 'report-peak-memory.cjs');

/** Runs statecraft with the peak-memory preload; resolves with the answer and its VmHWM in MB. */
async function measured(args, env) {
  const scratch = mkdtempSync(join(tmpdir(), 'statecraft-bench-peak-'));
  const peakFile = join(scratch, 'peak');
  try {
    const answer = await timed(STATECRAFT, [...args], {
      env: { ...env, NODE_OPTIONS: `--require ${PEAK_PRELOAD}`, STATECRAFT_TEST_PEAK_MEMORY_FILE: peakFile },
    });
    const kilobytes = Number(readFileSync(peakFile, 'utf8').trim().split(' ')[1]);
    return { ...answer, peakMB: (kilobytes * 1024) / (1024 * 1024) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export async function measureRefusalFlood(mebibytes = 600) {
  const repository = sampleRepository();
  const home = productHome();
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, STATECRAFT_HOME: home };
  try {
    const run = await measured(['run', repository, '--adapter', FLOOD_ADAPTER, '--prompt', `refusals: ${mebibytes}`, '--json'], env);
    const account = JSON.parse(run.stdout);
    if (account.outcome !== 'refused' || account.state !== 'concluded')
      throw new Error(`the flood was not recorded as refused (exit ${run.code}): ${run.stdout.slice(0, 500)}`);
    const list = await measured(['run', 'list', repository, '--json'], env);
    const show = await measured(['run', 'show', repository, account.runId, '--json'], env);
    if (list.code !== 0 || show.code !== 1) throw new Error(`run list exited ${list.code}, run show ${show.code}`);
    return {
      streamMiB: account.artifacts.stream.bytes / (1024 * 1024),
      refusals: account.refusalCount,
      runSeconds: run.ms / 1000,
      runPeakRssMB: run.peakMB,
      chainBytes: readFileSync(account.records.chain).length,
      listMs: list.ms,
      listPeakRssMB: list.peakMB,
      showMs: show.ms,
      showPeakRssMB: show.peakMB,
    };
  } finally {
    rmSync(repository, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await measureRefusalFlood()));
