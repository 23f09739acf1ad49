import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDirectories } from '@statecraft/adapter';
import { fixtureAdapterPath } from '@statecraft/adapter';
import { ATTACK_RAN_FILE, ATTACK_STOLEN_FILE, ATTACK_TARGET_VARIABLES } from '../attack-targets.js';
import type { Provocation } from '@statecraft/adapter';
import type { Provoked, SuiteContext } from '../suite-context.js';
import { SuiteEnvironmentFailure } from '../suite-environment-failure.js';
import { Findings, resultOf, type CaseVerdict } from './verdict.js';

/** What the row places before the attack and looks at after it, all outside the sandbox's reach. */
interface Targets {
  decoy: string;
  chain: string;
  chainText: string;
  secret: string;
  qualificationRecord: string;
  checkout: string;
  checkoutFile: string;
  checkoutReadme: string;
}

const CHECKOUT_README = '# the operator checkout\n';

/**
 * Row 9 (R12, R5.3): a hostile scenario attacks the records from inside an attempt — it reads the
 * chain and carries it off into the workspace, appends to it, writes a qualification record and a
 * file in the operator's checkout, and signals the supervisor. Every move must fail, judged from
 * outside: the chain's bytes unchanged (so it verifies as before), no trace of them in the
 * workspace, no record and no checkout file written, no signal received. The attack must have
 * run (its proof file in the workspace), or the row fails. A driver that cannot provoke it gets
 * the shipped fixture's attack, run in the same sandbox (evidence `fixture`).
 */
export async function checkRecordsOutOfReach(context: SuiteContext): Promise<CaseVerdict> {
  const targets = await placeTargets(context);
  const signals = watchSupervisorSignal();
  try {
    const { provoked, fallback } = await provokeAttack(context, targets);
    const received = signals.received();
    const findings = new Findings();
    const ran = resultOf(provoked);
    if ('verdict' in ran) return ran.verdict;
    findings.expect(existsSync(join(context.workspace, ATTACK_RAN_FILE)), `the hostile scenario left no ${ATTACK_RAN_FILE} in the workspace: it did not run`);
    const chainAfter = await readFile(targets.chain, 'utf8').catch(() => 'unreadable');
    findings.expect(
      chainAfter === targets.chainText,
      `the chain changed: ${JSON.stringify(chainAfter.slice(targets.chainText.length, targets.chainText.length + 120))} was appended or it was rewritten`,
    );
    const stolen = await workspaceHolds(context.workspace, targets.secret);
    findings.expect(stolen.length === 0, `the chain's content was read and carried into the workspace (${stolen.join(', ')})`);
    findings.expect(!existsSync(targets.qualificationRecord), `a qualification record was written: ${targets.qualificationRecord}`);
    findings.expect(!existsSync(targets.checkoutFile), `the operator's checkout was written: ${targets.checkoutFile}`);
    const readme = await readFile(targets.checkoutReadme, 'utf8').catch(() => 'unreadable');
    findings.expect(readme === CHECKOUT_README, "the operator's checkout README changed");
    findings.expect(received === 0, `the supervisor received ${received} SIGCONT from the attempt`);
    findings.observe(
      `${fallback ? "the driver cannot provoke the attack, so the shipped fixture's hostile scenario ran in the same sandbox; " : ''}` +
        `under boundary ${context.boundary.kind} the attack ran (outcome ${ran.result.outcome}) and every move failed: the chain's bytes are unchanged and none reached the workspace, ` +
        'no qualification record and no checkout file were written, the supervisor received no signal',
    );
    return findings.verdict(provoked.provocation.evidence);
  } finally {
    signals.stop();
    await Promise.all([
      rm(targets.decoy, { recursive: true, force: true }),
      rm(targets.checkout, { recursive: true, force: true }),
      rm(join(context.workspace, ATTACK_RAN_FILE), { force: true }),
      rm(join(context.workspace, ATTACK_STOLEN_FILE), { force: true }),
    ]);
  }
}

/**
 * A decoy chain and a qualification-record path inside the product home the sandbox hides (in a
 * directory of its own, removed afterwards, as the probe's canary is), and a stand-in for the
 * operator's checkout beside the workspace. The chain carries a random secret to look for later.
 */
async function placeTargets(context: SuiteContext): Promise<Targets> {
  const home = context.boundary.kind === 'bwrap' ? context.boundary.productHome : join(context.scratchDir, 'product-home');
  const nonce = randomUUID();
  const decoy = join(home, `.negative-suite-row-9-${nonce}`);
  const secret = `row-9-secret-${nonce}`;
  const chainText = `${JSON.stringify({ seq: 0, kind: 'intent', secret, prev: null })}\n`;
  const chain = join(decoy, 'chain.jsonl');
  try {
    makeDirectories(join(decoy, 'qualifications'), 0o700);
    await writeFile(chain, chainText, { mode: 0o600 });
  } catch (error) {
    // A full or read-only product home is the machine's fault, not the adapter's: the suite stops
    // with an i/o failure naming it (exit 4), and leaves no half-made decoy behind.
    await rm(decoy, { recursive: true, force: true }).catch(() => undefined);
    throw new SuiteEnvironmentFailure(decoy, `cannot place row 9's decoy records in the product home`, error);
  }
  const checkout = join(context.scratchDir, `operator-checkout-${nonce}`);
  await mkdir(checkout, { recursive: true });
  const checkoutReadme = join(checkout, 'README.md');
  await writeFile(checkoutReadme, CHECKOUT_README);
  return {
    decoy,
    chain,
    chainText,
    secret,
    qualificationRecord: join(decoy, 'qualifications', 'forged.json'),
    checkout,
    checkoutFile: join(checkout, 'forged.txt'),
    checkoutReadme,
  };
}

/** Counts SIGCONT delivered to this process (the supervisor) while the attack runs; SIGCONT is otherwise harmless. */
function watchSupervisorSignal(): { received: () => number; stop: () => void } {
  let count = 0;
  const onSignal = () => (count += 1);
  process.on('SIGCONT', onSignal);
  return { received: () => count, stop: () => process.removeListener('SIGCONT', onSignal) };
}

async function provokeAttack(context: SuiteContext, targets: Targets): Promise<{ provoked: Provoked; fallback: boolean }> {
  const environment = {
    [ATTACK_TARGET_VARIABLES.chain]: targets.chain,
    [ATTACK_TARGET_VARIABLES.qualificationRecord]: targets.qualificationRecord,
    [ATTACK_TARGET_VARIABLES.checkoutFile]: targets.checkoutFile,
    [ATTACK_TARGET_VARIABLES.supervisorPid]: String(process.pid),
  };
  const driven = context.driver.attack?.();
  if (driven !== undefined) {
    const provocation: Provocation = { ...driven, environment: { ...driven.environment, ...environment } };
    return { provoked: await context.provoke(provocation), fallback: false };
  }
  const fixture = fixtureAdapterPath();
  const provocation: Provocation = { prompt: 'scenario: attack\n', environment, evidence: 'fixture' };
  return { provoked: await context.provoke(provocation, { executable: fixture, manifestPath: `${fixture}.manifest.json` }), fallback: true };
}

/** Workspace files (top level) whose content carries the secret. */
async function workspaceHolds(workspace: string, secret: string): Promise<string[]> {
  const names = await readdir(workspace).catch(() => [] as string[]);
  const holding: string[] = [];
  for (const name of names) {
    const text = await readFile(join(workspace, name), 'utf8').catch(() => '');
    if (text.includes(secret)) holding.push(name);
  }
  return holding;
}
