import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { doctorOf, findingsAbout } from '../../fixtures/doctor-findings.js';
import { appendLinkedRecord, readChainRecords, type ForgedRecord } from '../../fixtures/relink-chain.js';
import { useTestTargets, type SampleRepository } from '../../fixtures/sample-repository.js';
import { finishedRun, parseJson, runStatecraft, startStatecraft } from '../../fixtures/statecraft-cli.js';

// One correctly linked outcome line appended for a killed attempt,
// a copy of a good attempt's outcome naming that attempt's stream, stderr and result, read as
// `completed`; doctor found nothing, and `accept` minted a real receipt for the killed attempt.
// Every kept file is now where its attempt keeps it, derived from its run and number.

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path });

interface Artifact {
  path: string;
}
interface Account {
  runId: string;
  attempt: number;
  state: string;
  outcome: string;
  records: { chain: string };
  artifacts: { request: Artifact; stream: Artifact | 'not-recorded'; stderr: Artifact | 'not-recorded'; result: Artifact | 'not-recorded' };
}
interface Shown extends Account {
  artifactCheck: Record<string, string>;
  recordFindings: { kind: string; path: string; message: string }[];
}

/** A run of the fixture's `hang` scenario, its supervisor killed with SIGKILL once its intent is durable: a dangling intent. */
async function killedAttempt(repository: SampleRepository): Promise<{ runId: string }> {
  const hung = startStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: hang', '--deadline', '60s', '--json'], home());
  const until = Date.now() + 30_000;
  for (;;) {
    const listed = await runStatecraft(['run', 'list', repository.path, '--json'], home());
    const running = listed.exitCode === 0 ? parseJson<{ attempts: Account[] }>(listed).attempts.find((attempt) => attempt.state === 'running') : undefined;
    if (running !== undefined) {
      hung.kill('SIGKILL');
      await finishedRun(hung);
      return running;
    }
    if (Date.now() > until) throw new Error('no intent appeared within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A completed attempt that writes the answer its check wants, shown as `run --json` shows it. */
async function goodAttempt(repository: SampleRepository): Promise<Account> {
  const run = await runStatecraft(
    ['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', 'forty-two'), '--json'],
    home(),
  );
  expect(run.exitCode).toBe(0);
  return parseJson<Account>(run);
}

/**
 * Appends, for the killed attempt, a copy of the good attempt's outcome naming the killed attempt's
 * run, number and intent: one linked line, no kept file written. `edit` changes the copy further.
 */
async function appendForgedOutcome(chain: string, killed: string, good: string, edit: (outcome: ForgedRecord) => void = () => undefined): Promise<void> {
  const records = await readChainRecords(chain);
  const intent = records.find(({ record }) => record.kind === 'intent' && record.runId === killed);
  const outcome = records.find(({ record }) => record.kind === 'outcome' && record.runId === good)?.record;
  if (intent === undefined || outcome === undefined) throw new Error('the chain holds no such intent or outcome');
  const forged = { ...outcome, runId: killed, attempt: 1, intent: intent.digest };
  edit(forged);
  await appendLinkedRecord(chain, forged);
}

async function killedAndGood() {
  const repository = await repositoryWithSuite(targets, { checks: ['grep -qx forty-two answer.txt'] });
  const killed = await killedAttempt(repository);
  const good = await goodAttempt(repository);
  return { repository, killed, good, chain: good.records.chain };
}

describe("every kept file is read where its own attempt keeps it; a record naming another attempt's is a finding", () => {
  it("an outcome appended for a killed attempt naming another attempt's files: doctor and run show name the record, line and both paths (exit 1), and read the attempt's own files", async () => {
    const { repository, killed, good, chain } = await killedAndGood();
    expect(findingsAbout((await doctorOf(targets.home.path)).value, chain).map((finding) => finding.kind)).toEqual(['dangling-intent']);
    await appendForgedOutcome(chain, killed.runId, good.runId);
    const line = (await readChainRecords(chain)).length;

    const { run, value } = await doctorOf(targets.home.path);
    expect(run.exitCode).toBe(1);
    const found = findingsAbout(value, chain);
    const elsewhere = found.filter((finding) => finding.kind === 'evidence-elsewhere');
    expect(elsewhere).toHaveLength(1);
    const goodResult = good.artifacts.result as Artifact;
    const ownResult = goodResult.path.replace(`/${good.runId}/`, `/${killed.runId}/`);
    expect(elsewhere[0]?.message).toContain(`run ${killed.runId} attempt 1: the outcome record (${chain} line ${line})`);
    expect(elsewhere[0]?.message).toContain(`its result at ${JSON.stringify(goodResult.path)}, not at ${ownResult}`);
    expect(elsewhere[0]?.message).toContain('its stream at');
    // The killed attempt's own files are the ones read: it never wrote a result.
    expect(found).toContainEqual(expect.objectContaining({ kind: 'missing-artifact', path: ownResult }));

    const showing = await runStatecraft(['run', 'show', repository.path, killed.runId, '--json'], home());
    expect(showing.exitCode).toBe(1);
    const shown = parseJson<Shown>(showing);
    expect(shown.artifacts.result).toMatchObject({ path: ownResult });
    expect(shown.artifactCheck.result).toBe('missing');
    expect(shown.recordFindings).toEqual([expect.objectContaining({ kind: 'evidence-elsewhere', path: chain })]);
    const human = await runStatecraft(['run', 'show', repository.path, killed.runId, '--posture'], home());
    expect(human.exitCode).toBe(1);
    expect(human.stdout).toContain('finding: evidence-elsewhere:');
  });

  it('accept refuses to judge such an outcome (exit 2, evidence-not-its-own), appending nothing, and so it does when the paths are made its own but its own kept result does not bear the outcome out', async () => {
    const { repository, killed, good, chain } = await killedAndGood();
    await appendForgedOutcome(chain, killed.runId, good.runId);
    const before = await readFile(chain, 'utf8');
    const accepting = await runStatecraft(['accept', repository.path, killed.runId, '--json'], { ...home(), timeoutMs: 120_000 });
    expect(accepting.exitCode).toBe(2);
    const refused = parseJson<{ refused: { reason: string; message: string } }>(accepting).refused;
    expect(refused.reason).toBe('evidence-not-its-own');
    expect(refused.message).toContain(`run ${killed.runId} attempt 1: its evidence is not its own`);
    expect(refused.message).toContain('nothing judged, nothing appended');
    expect(await readFile(chain, 'utf8')).toBe(before);

    // The same forgery with every path rewritten to the killed attempt's own: its own result was never written.
    const other = await killedAndGood();
    await appendForgedOutcome(other.chain, other.killed.runId, other.good.runId, (outcome) => {
      for (const artifact of Object.values(outcome.artifacts as Record<string, { path: string }>))
        artifact.path = artifact.path.replace(`/${other.good.runId}/`, `/${other.killed.runId}/`);
    });
    const owned = await runStatecraft(['accept', other.repository.path, other.killed.runId, '--json'], { ...home(), timeoutMs: 120_000 });
    expect(owned.exitCode).toBe(2);
    const ownedRefusal = parseJson<{ refused: { reason: string; message: string } }>(owned).refused;
    expect(ownedRefusal.reason).toBe('evidence-not-its-own');
    expect(ownedRefusal.message).toContain("reads completed, but the attempt's own kept result");
  });

  it('honest attempts, killed, completed and accepted, name only their own files: no finding', async () => {
    const { repository, good, chain } = await killedAndGood();
    const accepted = await runStatecraft(['accept', repository.path, good.runId, '--json'], { ...home(), timeoutMs: 120_000 });
    expect(accepted.exitCode).toBe(0);
    const found = findingsAbout((await doctorOf(targets.home.path)).value, chain);
    expect(found.map((finding) => finding.kind)).toEqual(['dangling-intent']);
    const shown = parseJson<Shown>(await runStatecraft(['run', 'show', repository.path, good.runId, '--json'], home()));
    expect(shown.recordFindings).toEqual([]);
  });
});
