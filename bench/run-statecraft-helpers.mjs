// Shared by the `statecraft run` benchmarks: temp repositories and homes, the built binary.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
export const STATECRAFT = join(root, 'packages', 'cli', 'bin', 'statecraft');
export const FIXTURE = join(root, 'packages', 'adapter', 'fixture', 'statecraft-fixture-adapter');

export function sampleRepository() {
  const path = realpathSync(mkdtempSync(join(tmpdir(), 'statecraft-bench-repo-')));
  const git = (...args) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@invalid', ...args], { cwd: path, stdio: 'ignore' });
  git('init', '--quiet');
  writeFileSync(join(path, 'README.md'), '# bench\n');
  git('add', '.');
  git('commit', '--quiet', '-m', 'initial');
  return path;
}

export function productHome() {
  return realpathSync(mkdtempSync(join(tmpdir(), 'statecraft-bench-home-')));
}

/** Runs a program to its end; resolves with elapsed milliseconds, stdout and the exit code. */
export function timed(file, args, { env, input, cwd } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.resume();
    child.stdin.end(input ?? '');
    child.once('error', reject);
    child.once('close', (code) => resolve({ ms: performance.now() - started, stdout: Buffer.concat(chunks).toString('utf8'), code }));
  });
}
