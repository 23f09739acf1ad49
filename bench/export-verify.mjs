// `statecraft export` and `statecraft verify` of one attempt whose kept stream is 200 MB, against
// the time to hash the bundle's bytes (targets: each ≤ 2× that; peak RSS ≤ 150 MB). The attempt is
// doctor's (bench/doctor.mjs): a real run whose stream is replaced by a generated one that
// classifies as recorded, so verify reads and classifies all of it. Peak RSS through
// test/fixtures/report-peak-memory.cjs, as the refusal flood measures it.
import { createHash } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median } from './common.mjs';
import { largeStreamAttempt } from './doctor.mjs';
import { STATECRAFT, timed } from './run-statecraft-helpers.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const PEAK_PRELOAD = join(root, 'test', 'fixtures', 'report-peak-memory.cjs');

/** Runs statecraft with the peak-memory preload: its answer, wall time and VmHWM in MB. */
async function measured(args, env, scratch) {
  const peakFile = join(scratch, `peak-${performance.now()}`);
  const answer = await timed(STATECRAFT, args, { env: { ...env, NODE_OPTIONS: `--require ${PEAK_PRELOAD}`, STATECRAFT_TEST_PEAK_MEMORY_FILE: peakFile } });
  const kilobytes = Number(readFileSync(peakFile, 'utf8').trim().split(' ')[1]);
  return { ...answer, peakMB: (kilobytes * 1024) / (1024 * 1024) };
}

/** SHA-256 of a file read in 1 MiB chunks, in this process: the floor both verbs are compared with. */
function hashMs(path) {
  const started = performance.now();
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  const fd = openSync(path, 'r');
  try {
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) hash.update(buffer.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  hash.digest();
  return performance.now() - started;
}

export async function measureExportVerify(megabytes = 200, rounds = 3) {
  const real = await largeStreamAttempt(megabytes);
  const scratch = mkdtempSync(join(tmpdir(), 'statecraft-bench-export-'));
  // verify needs no product home: it gets one that does not exist.
  const elsewhere = { ...real.env, STATECRAFT_HOME: join(scratch, 'no-home') };
  const exports = [];
  const verifies = [];
  const hashes = [];
  let bundleBytes = 0;
  try {
    for (let round = 0; round < rounds; round += 1) {
      const bundle = join(scratch, `bundle-${round}.tar`);
      const exported = await measured(['export', real.repository, real.runId, '-o', bundle, '--json'], real.env, scratch);
      if (exported.code !== 0) throw new Error(`export exited ${exported.code}: ${exported.stdout.slice(0, 500)}`);
      bundleBytes = statSync(bundle).size;
      hashes.push(hashMs(bundle));
      const verified = await measured(['verify', bundle, '--json'], elsewhere, scratch);
      if (verified.code !== 0) throw new Error(`verify exited ${verified.code}: ${verified.stdout.slice(0, 1000)}`);
      exports.push(exported);
      verifies.push(verified);
      rmSync(bundle);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    real.remove();
  }
  return {
    streamMB: real.streamBytes / 1e6,
    bundleMB: bundleBytes / 1e6,
    rounds,
    hashMs: median(hashes),
    exportMs: median(exports.map((answer) => answer.ms)),
    exportPeakRssMB: Math.max(...exports.map((answer) => answer.peakMB)),
    verifyMs: median(verifies.map((answer) => answer.ms)),
    verifyPeakRssMB: Math.max(...verifies.map((answer) => answer.peakMB)),
  };
}

/** Prints the figure against its targets, then its JSON line. */
export async function reportExportVerify() {
  const figure = await measureExportVerify();
  const fixed = (value, digits = 1) => value.toFixed(digits);
  const verdict = (ok) => (ok ? 'meets target' : 'MISSES target');
  console.log(
    `\n(k) export and verify of an attempt with a ${fixed(figure.streamMB)} MB stream (a ${fixed(figure.bundleMB)} MB bundle; hashing it ${fixed(figure.hashMs)} ms)`,
  );
  for (const [label, ms, peak] of [
    ['statecraft export', figure.exportMs, figure.exportPeakRssMB],
    ['statecraft verify', figure.verifyMs, figure.verifyPeakRssMB],
  ]) {
    const ratio = ms / figure.hashMs;
    console.log(
      `    ${label.padEnd(22)} median ${fixed(ms)} ms  ratio ${fixed(ratio, 2)} (≤ 2)  peak RSS ${fixed(peak)} MB (≤ 150)  ${verdict(ratio <= 2 && peak <= 150)}`,
    );
  }
  console.log(`\n${JSON.stringify({ exportVerify: figure })}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await reportExportVerify();
