import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R13.3: a receipt proves the suite passed over exactly the candidate's bytes. A symbolic link the
// candidate commits is its bytes only as a link: what a check reads through one that leaves the
// candidate's tree (into the agent's workspace, say, where an ignored file holds the answer) is not.

interface Account {
  outcome: string;
  acceptance: { verdict: string; reason: string; explanation: string; checks: unknown[]; checksNotRun: number; receipt: object | null };
}

/**
 * An adapter that, in its workspace, ignores and writes `hidden.txt` (the answer) and commits only
 * `answer.txt`, a link whose target the prompt names: `absolute` (the hidden file's absolute path),
 * `relative` (up out of the tree and into the workspace by name), or `inside` (`data/answer.txt`,
 * a file it writes in the tree, which the candidate then holds).
 */
async function createLinkingAdapter(): Promise<{ executable: string; remove: () => Promise<void> }> {
  return createScriptedAdapter(
    'linking',
    [
      "import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';",
      "import { join } from 'node:path';",
      "const how = readFileSync(0, 'utf8').trim();",
      "writeFileSync('.gitignore', 'hidden.txt\\n');",
      "writeFileSync('hidden.txt', 'forty-two\\n');",
      "mkdirSync('data', { recursive: true });",
      "writeFileSync('data/answer.txt', 'forty-two\\n');",
      'const targets = {',
      "  absolute: join(process.cwd(), 'hidden.txt'),",
      '  relative: `../../workspaces/${process.env.STATECRAFT_RUN_ID}/hidden.txt`,',
      "  inside: 'data/answer.txt',",
      '};',
      "symlinkSync(targets[how], 'answer.txt');",
      'init();',
      "emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });",
    ].join('\n'),
  );
}

const targets = useTestTargets({ sharedRepository: false });

describe('a candidate that commits a link to bytes outside itself (R13.3)', () => {
  it.each([
    ['absolute', (workspace: string) => join(workspace, 'hidden.txt')],
    ['relative', () => '../../workspaces/'],
  ])('is never accepted when the link is %s, and the account names the link', async (how, target) => {
    const adapter = await createLinkingAdapter();
    try {
      const repository = await repositoryWithSuite(targets, { checks: ['grep -qx forty-two answer.txt'] });
      const run = await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--prompt', how, '--accept', '--json'], {
        home: targets.home.path,
        timeoutMs: 120_000,
      });
      const account = parseJson<Account & { runId: string; workspace: string }>(run);
      expect(run.exitCode).toBe(1);
      expect(account.acceptance).toMatchObject({ verdict: 'failed', reason: 'link-outside-candidate', receipt: null, checks: [], checksNotRun: 1 });
      expect(account.outcome).toBe('failed');
      expect(account.acceptance.explanation).toContain(`answer.txt -> ${target(account.workspace)}`);
      // The human rendering names it too.
      const shown = await runStatecraft(['run', 'show', repository.path, account.runId, '--posture'], { home: targets.home.path });
      expect(shown.stdout).toContain(`answer.txt -> ${target(account.workspace)}`);
    } finally {
      await adapter.remove();
    }
  });

  it('is accepted when its link stays inside the candidate', async () => {
    const adapter = await createLinkingAdapter();
    try {
      const repository = await repositoryWithSuite(targets, { checks: ['grep -qx forty-two answer.txt'] });
      const run = await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--prompt', 'inside', '--accept', '--json'], {
        home: targets.home.path,
        timeoutMs: 120_000,
      });
      expect(parseJson<Account>(run).acceptance).toMatchObject({ verdict: 'accepted', reason: 'every-check-passed' });
      expect(run.exitCode).toBe(0);
    } finally {
      await adapter.remove();
    }
  });
});
