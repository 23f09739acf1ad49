import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryWithSuite, writeFiles, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R13.3, R13.4, R8.4: a check found on the PATH that the kernel then cannot start (its interpreter
// is missing) is no-acceptance, check-not-started. Its output files were opened before the spawn
// failed, and the record names no check: left behind, they made doctor report a healthy home as
// holding unrecorded acceptance files.

const targets = useTestTargets({ sharedRepository: false });

/** A directory on the PATH holding `unstartable-check`, whose shebang names an interpreter that does not exist. */
let programs = '';
beforeAll(async () => {
  programs = await mkdtemp(join(tmpdir(), 'statecraft-unstartable-'));
  await writeFile(join(programs, 'unstartable-check'), '#!/nonexistent/python3\nprint("never")\n');
  await chmod(join(programs, 'unstartable-check'), 0o755);
});
afterAll(async () => {
  await rm(programs, { recursive: true, force: true });
});

interface Finding {
  kind: string;
  path: string;
}

describe('a check that could not be started (R13.3, R8.4)', () => {
  it('leaves no output files, so doctor finds no unrecorded acceptance files and exits 0', async () => {
    const repository = await repositoryWithSuite(targets, {});
    const declaration = { project: { commands: ['unstartable-check'] }, acceptance: { checks: ['unstartable-check'] } };
    await writeFiles(repository, { '.statecraft/environment.json': `${JSON.stringify(declaration, null, 2)}\n` });
    await repository.git('commit', '--quiet', '-am', 'the check is a program whose interpreter is missing');
    // The process-group fallback spawns the program itself: its exec is what fails.
    const env = { PATH: `${programs}:${process.env.PATH ?? '/usr/bin:/bin'}`, STATECRAFT_CONTAINMENT: 'process-group' };
    const options = { home: targets.home.path, env };
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', 'x'), '--json'], options);
    expect(run.exitCode).toBe(0);
    const account = parseJson<{ runId: string; records: { chain: string } }>(run);
    const accepted = await runStatecraft(['accept', repository.path, account.runId, '--json', '--boundary', 'none'], { ...options, timeoutMs: 120_000 });
    expect(parseJson<{ verdict: string; reason: string; checks: unknown[] }>(accepted)).toMatchObject({
      verdict: 'no-acceptance',
      reason: 'check-not-started',
      checks: [],
    });
    const doctor = await runStatecraft(['doctor', '--json'], options);
    const findings = parseJson<{ findings: Finding[] }>(doctor).findings;
    expect(findings.filter((finding) => finding.kind === 'unrecorded-acceptance-files')).toEqual([]);
    expect(doctor.exitCode).toBe(0);
    const judged = join(dirname(account.records.chain), 'attempts', account.runId, '1', 'acceptance-1');
    expect(existsSync(judged) ? readdirSync(judged) : []).toEqual([]);
  });
});
