import { existsSync, lstatSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { managedPathAdapters } from '../../fixtures/managed-path-adapters.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { finishedRun, parseJson, startStatecraft } from '../../fixtures/statecraft-cli.js';

// R12: an agent's sandbox was assembled from paths another sandbox can change. A managed path is
// checked with its links resolved, then bound by path: an agent of another run, whose own managed
// path holds this one, swapped it for a link to the product home between the check and the bind,
// and the next launch got the home bound writable. Every bind is now made by descriptor, opened at
// the path that was checked and refused if it is no longer there; a launch either runs over what
// was checked or is refused, and never sees the home.

const targets = useTestTargets({ sharedRepository: false });
const { hostileAdapterManaging, runWith } = managedPathAdapters(targets);

const place = join('/tmp', `statecraft-shared-${randomUUID()}`);
const shared = join(place, 'shared');
const inner = join(shared, 'inner');
const stop = join(place, 'stop');
afterAll(() => rmSync(place, { recursive: true, force: true }));

/** Keeps exchanging `inner` (a directory) with a twin link to the product home, until `stop` appears; leaves the directory in place. */
const FLIPPER = `
use strict; use Config; use File::Spec;
my ($shared, $home, $stop) = @ARGV;
chdir $shared or die;
mkdir 'inner';
symlink(File::Spec->abs2rel($home, $shared), 'inner.twin');
my $renameat2 = $Config{archname} =~ /aarch64/ ? 276 : 316;
my ($one, $other) = ('inner', 'inner.twin');
until (-e $stop) { syscall($renameat2, -100, $one, -100, $other, 2) for 1 .. 1000 }
syscall($renameat2, -100, $one, -100, $other, 2) if -l 'inner';
`;

const LAUNCHES = 12;

describe("an agent's sandbox, assembled while another run's agent swaps a path it binds (R12)", () => {
  it('binds what was checked or refuses the launch: no launch sees the product home', async () => {
    const home = targets.home.path;
    mkdirSync(place, { recursive: true });
    const marker = `home-marker-${randomUUID()}`;
    writeFileSync(join(home, marker), '');
    // The swapper: its managed path holds the other adapter's.
    const swapper = await hostileAdapterManaging(
      [shared],
      [
        "import { spawnSync } from 'node:child_process';",
        `spawnSync('perl', ['-e', ${JSON.stringify(FLIPPER)}, ${JSON.stringify(shared)}, ${JSON.stringify(home)}, ${JSON.stringify(stop)}], { stdio: 'ignore' });`,
      ].join('\n'),
      { requiresCommands: ['node', 'perl'] },
    );
    // The victim: exits 7 when its managed path shows what only the product home holds.
    const victim = await hostileAdapterManaging(
      [inner],
      [
        "import { readdirSync } from 'node:fs';",
        `let seen = []; try { seen = readdirSync(${JSON.stringify(inner)}); } catch {}`,
        `if (seen.includes(${JSON.stringify(marker)})) { process.stderr.write('the product home is bound at the managed path'); process.exit(7); }`,
      ].join('\n'),
    );
    const swapping = startStatecraft(['run', (await targets.fresh()).path, '--adapter', swapper, '--prompt', 'swap', '--json'], { home, timeoutMs: 300_000 });
    try {
      for (let waited = 0; waited < 30_000 && !pathExists(join(shared, 'inner.twin')); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      const answers: { exitCode: number; said: string }[] = [];
      for (let launch = 0; launch < LAUNCHES; launch += 1) {
        const ran = await runWith((await targets.fresh()).path, victim);
        answers.push({
          exitCode: ran.exitCode,
          said: ran.exitCode === 2 ? parseJson<{ refused: { message: string } }>(ran).refused.message : `${ran.stderr}${ran.stdout.slice(0, 2000)}`,
        });
      }
      // Each launch ran over the directory that was checked, or was refused before its adapter started.
      for (const answer of answers) expect([0, 2], JSON.stringify(answer)).toContain(answer.exitCode);
    } finally {
      writeFileSync(stop, '');
      await finishedRun(swapping);
    }
  }, 300_000);
});

/** Whether anything, a dangling link included, is at the path. */
function pathExists(path: string): boolean {
  return existsSync(path) || lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}
