import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactDigest, relinkChain, type ForgedRecord } from '../../fixtures/relink-chain.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, rowsRejoined, runStatecraft } from '../../fixtures/statecraft-cli.js';

interface Artifact {
  path: string;
  sha256: string;
  bytes: number;
}
interface Account {
  runId: string;
  attempt: number;
  outcome: string;
  cause: string;
  records: { chain: string };
  artifacts: { request: Artifact; prompt: Artifact; stream: Artifact; stderr: Artifact; result: Artifact };
}
interface Examination {
  targets: { target: string; state: string; attempts: number; reclassified: number }[];
  findings: { kind: string; path: string; message: string }[];
}

const targets = useTestTargets({ sharedRepository: false });

const attempt = async (target: string, scenario: string, ...extra: string[]): Promise<Account> =>
  parseJson<Account>(
    await runStatecraft(['run', target, '--adapter', 'fixture', '--prompt', `scenario: ${scenario}`, '--json', ...extra], { home: targets.home.path }),
  );
const doctor = async () => {
  const run = await runStatecraft(['doctor', '--json'], { home: targets.home.path });
  return { run, value: parseJson<Examination>(run) };
};
const show = (target: string, account: Account, ...extra: string[]) =>
  runStatecraft(['run', 'show', target, account.runId, ...extra, '--posture'], { home: targets.home.path });

/** The findings about one target's records: the file's tests share a product home. */
const findingsOf = (value: Examination, account: Account) => value.findings.filter((finding) => finding.path.startsWith(`${dirname(account.records.chain)}/`));

/**
 * Rewrites one attempt's result the way a forger who knows the format would: the outcome record (its
 * `result`, and `repeated` where the record repeats a field of it), the kept result file and its
 * digest, and every link after it recomputed — so the chain still verifies and the record still
 * agrees with its result file. The kept stream is left as it was.
 */
async function launderResult(account: Account, edit: (result: ForgedRecord) => ForgedRecord, repeated: ForgedRecord = {}): Promise<void> {
  const laundered = edit(JSON.parse(await readFile(account.artifacts.result.path, 'utf8')) as ForgedRecord);
  const text = `${JSON.stringify(laundered, null, 2)}\n`;
  await writeFile(account.artifacts.result.path, text);
  await relinkChain(account.records.chain, (record) => {
    if (record.kind !== 'outcome' || record.runId !== account.runId || record.attempt !== account.attempt) return record;
    const artifacts = record.artifacts as Record<string, Artifact>;
    return { ...record, ...repeated, result: laundered, artifacts: { ...artifacts, result: { ...artifacts.result, ...artifactDigest(text) } } };
  });
}

/** Launders one attempt's outcome into `completed` (launderResult). */
function launderIntoCompleted(account: Account): Promise<void> {
  const completed = { outcome: 'completed', cause: 'none', refusalCount: 0, timedOut: false };
  return launderResult(account, (result) => ({ ...result, ...completed, refusals: [], terminal: 'completed', streamDiagnostic: 'none' }), completed);
}

describe('doctor and run show re-digest every file kept beside the chain (R8.4, issue 9)', () => {
  it('an edited kept stream is a finding: doctor exits 1 naming the file and the attempt, and run show exits 1', async () => {
    const target = await targets.fresh();
    const account = await attempt(target.path, 'complete');
    expect(account.outcome).toBe('completed');
    await appendFile(account.artifacts.stream.path, '{"type":"progress","note":"added afterwards"}\n');

    const { run, value } = await doctor();
    expect(run.exitCode).toBe(1);
    const altered = findingsOf(value, account);
    expect(altered).toEqual([expect.objectContaining({ kind: 'altered-artifact' })]);
    expect(altered[0]?.message).toContain(`run ${account.runId} attempt 1`);
    expect(altered[0]?.message).toContain('stream');

    const human = await runStatecraft(['doctor'], { home: targets.home.path });
    expect(human.exitCode).toBe(1);
    expect(human.stdout).toContain('altered-artifact');
    expect(rowsRejoined(human.stdout, 4)).toContain(account.artifacts.stream.path);

    const shown = await show(target.path, account, '--json');
    expect(shown.exitCode).toBe(1);
    expect(parseJson<{ artifactCheck: Record<string, string> }>(shown).artifactCheck).toMatchObject({ stream: 'altered', result: 'verified' });
    const shownHuman = await show(target.path, account);
    expect(shownHuman.exitCode).toBe(1);
    expect(shownHuman.stdout).toContain(`${account.artifacts.stream.path}: altered`);
  });

  it('every kept file with a digest in the chain is checked: an altered request, prompt, stderr or result and a missing one are each a finding', async () => {
    const target = await targets.fresh();
    const account = await attempt(target.path, 'complete');
    await appendFile(account.artifacts.request.path, ' ');
    await writeFile(account.artifacts.prompt.path, 'scenario: refuse');
    await appendFile(account.artifacts.stderr.path, 'a line written afterwards\n');
    await rm(account.artifacts.result.path);

    const { run, value } = await doctor();
    expect(run.exitCode).toBe(1);
    const ofAttempt = findingsOf(value, account);
    expect(ofAttempt).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'altered-artifact', path: account.artifacts.request.path }),
        expect.objectContaining({ kind: 'altered-artifact', path: account.artifacts.prompt.path }),
        expect.objectContaining({ kind: 'altered-artifact', path: account.artifacts.stderr.path }),
        expect.objectContaining({ kind: 'missing-artifact', path: account.artifacts.result.path }),
      ]),
    );
    expect(ofAttempt).toHaveLength(4);

    const shown = await show(target.path, account, '--json');
    expect(shown.exitCode).toBe(1);
    expect(parseJson<{ artifactCheck: Record<string, string> }>(shown).artifactCheck).toEqual({
      request: 'altered',
      prompt: 'altered',
      stream: 'verified',
      stderr: 'altered',
      result: 'missing',
    });
  });
});

describe("doctor re-classifies every attempt from its kept stream with the supervisor's own classifier (R8.2, issue 9)", () => {
  it('attempts of every ending, left as recorded, agree with their kept streams: no finding', async () => {
    const target = await targets.fresh();
    const scenarios = ['complete', 'refuse', 'malformed', 'no-result', 'read-failure', 'turn-limit', 'provider-error', 'unmapped'];
    const accounts: Account[] = [];
    for (const scenario of scenarios) accounts.push(await attempt(target.path, scenario));
    accounts.push(await attempt(target.path, 'hang', '--deadline', '1s'));
    expect(new Set(accounts.map((account) => `${account.outcome} ${account.cause}`)).size).toBeGreaterThanOrEqual(8);

    const { value } = await doctor();
    expect(value.targets.find((entry) => entry.target === target.path)).toMatchObject({ state: 'verified', attempts: 9, reclassified: 9 });
    expect(findingsOf(value, accounts[0] as Account)).toEqual([]);
  });

  it('an interrupted attempt laundered into completed, links recomputed, still verifies for run list but doctor reports the disagreement (exit 1)', async () => {
    const target = await targets.fresh();
    const account = await attempt(target.path, 'hang', '--deadline', '1s');
    expect(account).toMatchObject({ outcome: 'interrupted', cause: 'deadline' });
    await launderIntoCompleted(account);

    const list = await runStatecraft(['run', 'list', target.path, '--json'], { home: targets.home.path });
    expect(list.exitCode).toBe(0);
    expect(parseJson<{ attempts: { outcome: string }[] }>(list).attempts).toEqual([expect.objectContaining({ outcome: 'completed' })]);

    const { run, value } = await doctor();
    expect(run.exitCode).toBe(1);
    const ofAttempt = findingsOf(value, account);
    expect(ofAttempt).toEqual([expect.objectContaining({ kind: 'outcome-disagrees-with-stream', path: account.artifacts.stream.path })]);
    expect(ofAttempt[0]?.message).toContain('completed');
    expect(ofAttempt[0]?.message).toContain('interrupted (stream-no-result)');

    const human = await runStatecraft(['doctor'], { home: targets.home.path });
    expect(human.exitCode).toBe(1);
    expect(human.stdout).toContain('outcome-disagrees-with-stream');
  });

  it('a refused attempt laundered into completed with no refusals is found by the refusal its kept stream still carries', async () => {
    const target = await targets.fresh();
    const account = await attempt(target.path, 'refuse');
    expect(account.outcome).toBe('refused');
    await launderIntoCompleted(account);

    const { run, value } = await doctor();
    expect(run.exitCode).toBe(1);
    const ofAttempt = findingsOf(value, account);
    expect(ofAttempt).toEqual([expect.objectContaining({ kind: 'outcome-disagrees-with-stream' })]);
    expect(ofAttempt[0]?.message).toContain('refused');
    expect(ofAttempt[0]?.message).toContain('1 refusal');
  });

  it("a refusal's recorded text, the claim and the provider rewritten with the outcome left as it was: doctor and run show name each field the kept stream does not give (exit 1)", async () => {
    const target = await targets.fresh();
    const account = await attempt(target.path, 'refuse');
    expect(account.outcome).toBe('refused');
    // What was refused now reads as a harmless command; the claim and the provider are another's.
    await launderResult(account, (result) => {
      const [refusal] = result.refusals as { verbatim: { input: { command: string } } }[];
      if (refusal === undefined) throw new Error('the refused attempt recorded no refusal');
      refusal.verbatim.input.command = 'git status';
      const claim = result.providerClaim as ForgedRecord;
      return {
        ...result,
        providerClaim: { ...claim, reason: 'all checks passed' },
        provider: { name: 'claude-code', version: '9.9.9', digest: 'not-recorded' },
      };
    });

    const { run, value } = await doctor();
    expect(run.exitCode).toBe(1);
    const ofAttempt = findingsOf(value, account);
    expect(ofAttempt).toEqual([expect.objectContaining({ kind: 'outcome-disagrees-with-stream', path: account.artifacts.stream.path })]);
    const message = ofAttempt[0]?.message ?? '';
    expect(message).toContain(
      `run ${account.runId} attempt 1: the outcome record holds what its kept stream ${account.artifacts.stream.path} (digest verified)`,
    );
    expect(message).toContain(
      'result.refusals.0.verbatim.input.command is "git status" in the record, refusals.0.verbatim.input.command is "git push" in the stream',
    );
    expect(message).toContain('result.providerClaim.reason is "all checks passed" in the record, providerClaim.reason is "completed" in the stream');
    expect(message).toContain(
      'result.provider is {"name":"claude-code","version":"9.9.9","digest":"not-recorded"} in the record, provider is "none" in the stream',
    );

    const shown = await show(target.path, account, '--json');
    expect(shown.exitCode).toBe(1);
    const check = parseJson<{ outcomeCheck: { state: string; fields: { field: string }[] } }>(shown).outcomeCheck;
    expect(check.state).toBe('disagrees');
    expect(check.fields.map((field) => field.field)).toEqual(['result.refusals.0.verbatim.input.command', 'result.providerClaim.reason', 'result.provider']);
    const human = await show(target.path, account);
    expect(human.exitCode).toBe(1);
    expect(human.stdout).toContain(
      'finding: the outcome record holds what its kept stream, read again, does not give: result.refusals.0.verbatim.input.command is "git status"',
    );
  });
});
