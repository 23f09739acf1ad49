import { readFileSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFiles } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R12, R13.3: a check's sandbox was assembled from paths while the check before it ran candidate
// code. Authority entries are bound read-only by path, so a check that swapped a directory above
// an entry for a link (to the product home, or to its parent) got the next check's sandbox bound
// to the home, and the home read. Each check now sees the home hidden, however the one before it
// swapped the paths its sandbox is assembled from: a check's sandbox is set up only once the check
// before it has ended, and every bind is made by descriptor.

interface Acceptance {
  verdict: string;
  checks: { exitCode: number | null; stdout: { path: string } }[];
}

/**
 * Each check first says what its own sandbox shows of the product home, then keeps exchanging
 * (renameat2 RENAME_EXCHANGE: the path is never missing) `spec` with a twin that leads to the
 * home, as long as the next check's sandbox may be being set up; it leaves the tree as it found
 * it. Perl, which starts in a few milliseconds: the next check's sandbox was set up as this began.
 */
const FLIP = `
use strict; use Config; use Cwd; use File::Basename; use File::Path qw(remove_tree); use File::Spec;
my ($home, $how) = @ARGV;
for my $place ($home, 'spec/' . basename($home), 'spec/golden') {
  if (opendir(my $listing, $place)) { print "$place ", join(' ', sort grep { !/^\\.\\.?$/ } readdir $listing), "\\n" }
  else { print "$place unreadable: $!\\n" }
}
my $here = getcwd();
if ($how eq 'leaf') { mkdir 'spec.twin'; symlink(File::Spec->abs2rel($home, "$here/spec"), 'spec.twin/golden') }
else { symlink(File::Spec->abs2rel(dirname($home), $here), 'spec.twin') }
my $renameat2 = $Config{archname} =~ /aarch64/ ? 276 : 316;
my ($one, $other) = ('spec', 'spec.twin');
my $ends = time + 2;
syscall($renameat2, -100, $one, -100, $other, 2) while time < $ends;
syscall($renameat2, -100, $one, -100, $other, 2) if -l 'spec' || -l 'spec/golden';
if (-l 'spec.twin') { unlink 'spec.twin' } else { remove_tree('spec.twin') }
`;

const CHECKS = 5;
const ENTRIES_BEFORE = 300;
const targets = useTestTargets({ sharedRepository: false });

describe("a check's sandbox, assembled while the check before it swaps the paths it is assembled from (R12, R13.3)", () => {
  it.each([
    ['swaps the directory above an authority entry for one whose entry is a link to the product home', 'leaf'],
    ["swaps the directory above an authority entry for a link to the product home's parent", 'parent'],
  ])(
    'never shows a check the product home when the check before it %s',
    async (_, how) => {
      const home = targets.home.path;
      // Something only the product home holds, to look for in what each check saw.
      const marker = `home-marker-${randomUUID()}`;
      writeFileSync(join(home, marker), '');
      // The authority entry: `spec/golden/`, or for the parent swap `spec/<the home's name>/`, which the link's target also holds.
      const entry = how === 'leaf' ? 'spec/golden' : `spec/${basename(home)}`;
      const repository = await targets.fresh();
      // Many authority entries bound before the one under `spec`: the next sandbox's assembly takes long enough to be swapped under.
      const tests = Array.from({ length: ENTRIES_BEFORE }, (_, index) => `tests/case-${index}.txt`);
      const acceptance = { checks: Array.from({ length: CHECKS }, () => `perl flip.pl ${home} ${how}`), authority: [...tests, `${entry}/`] };
      await writeFiles(repository, {
        '.statecraft/environment.json': `${JSON.stringify({ project: { commands: ['perl'] }, acceptance })}\n`,
        'flip.pl': FLIP,
        [`${entry}/kept.txt`]: 'the authority\n',
        ...Object.fromEntries(tests.map((test) => [test, 'a case\n'])),
      });
      await repository.git('add', '-A');
      await repository.git('commit', '--quiet', '-m', 'a suite whose checks swap the paths the next one is assembled from');
      const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: write\npath: answer.txt\ntext: 42\n', '--json'], {
        home,
      });
      expect(run.exitCode).toBe(0);
      const runId = parseJson<{ runId: string }>(run).runId;
      const accepted = await runStatecraft(['accept', repository.path, runId, '--json'], { home, timeoutMs: 180_000 });
      const judged = parseJson<Acceptance>(accepted);
      const seen = judged.checks.map((check) => readFileSync(check.stdout.path, 'utf8'));
      // Every check ran and reported, and none of them saw what the home holds.
      expect(seen).toHaveLength(CHECKS);
      for (const report of seen) {
        expect(report).toContain('kept.txt');
        expect(report).not.toContain(marker);
      }
      expect(judged.verdict).toBe('accepted');
      expect(accepted.exitCode).toBe(0);
    },
    300_000,
  );
});
