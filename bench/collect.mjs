// `statecraft collect` of 32 bundles of about 1 MB each (issue 33: ≤ 2 s). Each bundle is a real
// attempt of one run group (the fixture adapter writing a file of random text, so the candidate's
// git bundle does not compress away), exported from a home with a signing key; collect verifies
// all 32 with that key, ranks them and appends the selection, into a fresh home each round.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './common.mjs';
import { FIXTURE, STATECRAFT, productHome, sampleRepository, timed } from './run-statecraft-helpers.mjs';

export async function measureCollect(bundles = 32, textBytes = 190_000, rounds = 3) {
  const repository = sampleRepository();
  const home = productHome();
  const scratch = mkdtempSync(join(tmpdir(), 'statecraft-bench-collect-'));
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, STATECRAFT_HOME: home };
  try {
    const keys = await timed(STATECRAFT, ['keys', 'generate'], { env });
    if (keys.code !== 0) throw new Error(`keys generate exited ${keys.code}`);
    const paths = [];
    let bytes = 0;
    for (let index = 0; index < bundles; index += 1) {
      const prompt = join(scratch, 'prompt.txt');
      writeFileSync(prompt, `scenario: write\npath: answer.txt\ntext: ${randomBytes(textBytes * 0.75).toString('base64')}\n`);
      const group = ['--group', 'bench', '--index', String(index), '--attempts', String(bundles)];
      const run = await timed(STATECRAFT, ['run', repository, '--adapter', FIXTURE, '--prompt-file', prompt, ...group, '--json'], { env });
      if (run.code !== 0) throw new Error(`run ${index} exited ${run.code}: ${run.stdout.slice(0, 500)}`);
      const bundle = join(scratch, `attempt-${index}.tar`);
      const exported = await timed(STATECRAFT, ['export', repository, 'latest', '-o', bundle], { env });
      if (exported.code !== 0) throw new Error(`export ${index} exited ${exported.code}`);
      bytes += statSync(bundle).size;
      paths.push(bundle);
    }
    const times = [];
    for (let round = 0; round < rounds; round += 1) {
      const collector = { ...env, STATECRAFT_HOME: join(scratch, `collector-${round}`) };
      const collected = await timed(STATECRAFT, ['collect', ...paths, repository, '--trust', join(home, 'keys', 'signing-key.pub'), '--json'], {
        env: collector,
      });
      if (collected.code !== 0) throw new Error(`collect exited ${collected.code}: ${collected.stdout.slice(0, 500)}`);
      times.push(collected.ms);
    }
    return { bundles, meanBundleMB: bytes / bundles / 1e6, rounds, collectMs: median(times) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
    rmSync(repository, { recursive: true, force: true });
  }
}

/** Prints the figure against its target, then its JSON line. */
export async function reportCollect() {
  const figure = await measureCollect();
  const ok = figure.collectMs <= 2000;
  console.log(`\n(l) collect of ${figure.bundles} bundles of ${figure.meanBundleMB.toFixed(2)} MB each`);
  console.log(
    `    statecraft collect     median ${figure.collectMs.toFixed(0)} ms over ${figure.rounds} rounds (≤ 2000)  ${ok ? 'meets target' : 'MISSES target'}`,
  );
  console.log(`\n${JSON.stringify({ collect: figure })}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await reportCollect();
