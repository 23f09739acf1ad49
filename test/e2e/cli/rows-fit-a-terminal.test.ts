import { describe, expect, it } from 'vitest';
import { fixtureAdapterPath } from '@statecraft/adapter';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft, type CliRun } from '../../fixtures/statecraft-cli.js';

const targets = useTestTargets();

/** Every row within 80 columns; digests by their first 12 digits. */
function expectRowsFit(ran: CliRun): void {
  for (const row of ran.stdout.trimEnd().split('\n')) {
    expect([...row].length, `${ran.args.join(' ')}: ${row}`).toBeLessThanOrEqual(80);
  }
  expect(ran.stdout, ran.args.join(' ')).not.toMatch(/sha256:[0-9a-f]{13}/);
}

describe('env plan, qualify, qualifications, keys, doctor and export answer in rows that fit a terminal; whole digests are in --json', () => {
  it('a qualified fixture: env plan, qualify, the record listed, shown and checked; a key made, the home examined, a run exported', async () => {
    const home = targets.home.path;
    const qualified = await runStatecraft(['qualify', '--fixture'], { home });
    expect(qualified.exitCode, qualified.stdout + qualified.stderr).toBe(0);
    expectRowsFit(qualified);
    // A case that passed is its title; its evidence is one command away.
    expect(qualified.stdout).toMatch(/^pass {5}row 9 {2}an attempt that attacks the records/m);
    expect(qualified.stdout).not.toContain('received no signal');
    expect(qualified.stdout).toContain("each case's evidence: statecraft qualifications show <record>");

    const record = parseJson<{ records: { id: string; adapter: { digest: string } }[] }>(await runStatecraft(['qualifications', 'list', '--json'], { home }))
      .records[0];
    expect(record).toBeDefined();
    const digest = record!.adapter.digest;
    expect(qualified.stdout).toContain(`adapter   fixture 1.0.0  ${digest.slice(0, 'sha256:'.length + 12)}\n`);

    const ran = await runStatecraft(['run', targets.repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete'], { home });
    expect(ran.exitCode, ran.stderr).toBe(0);
    const answers = [
      await runStatecraft(['env', 'plan', targets.repository.path, '--adapter', 'fixture'], { home }),
      await runStatecraft(['keys', 'generate'], { home }),
      await runStatecraft(['doctor'], { home }),
      await runStatecraft(['export', targets.repository.path, 'latest', '-o', `${home}/exported/`], { home }),
      await runStatecraft(['qualifications'], { home }),
      await runStatecraft(['qualifications', 'show', record!.id], { home }),
      await runStatecraft(['qualifications', 'check', fixtureAdapterPath()], { home }),
    ];
    for (const answer of answers) {
      expect(answer.exitCode, answer.stdout + answer.stderr).toBe(0);
      expectRowsFit(answer);
    }
    // The details are still there when asked for: each case's evidence, the digest whole in --json.
    expect(answers[5]!.stdout).toContain('received no signal');
    const checked = parseJson<{ adapter: { digest: string } }>(await runStatecraft(['qualifications', 'check', fixtureAdapterPath(), '--json'], { home }));
    expect(checked.adapter.digest).toBe(digest);
  });
});
