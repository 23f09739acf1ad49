import { readFileSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios, pinnedCodexPath, scenariosDirectory, startModelDouble, type ModelDouble } from '@statecraft/adapter-codex';
import { repositoryWithSuite } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { useLiveClaude } from '../../fixtures/live-claude.js';

// Both real providers in one run, through the built CLI: `--adapter claude-code --adapter codex
// --attempts 2 --accept`, the pinned claude and codex each talking only to its model double on
// 127.0.0.1. Claude is scripted to write the answer the repository's check wants; codex to leave
// a marker file and no answer. The check decides; the one that passes it is chosen and landed.

const scratch = scratchDirectories();
const targets = useTestTargets({ sharedRepository: false });
const claude = useLiveClaude(scratch, 'statecraft-many-cc-bin');

let codexDouble: ModelDouble;
beforeAll(async () => {
  codexDouble = await startModelDouble(await loadScenarios(scenariosDirectory()));
  await symlink(pinnedCodexPath(), join(claude.bin, 'codex'));
});
afterAll(async () => {
  await codexDouble.stop();
});

interface Many {
  runId: string;
  attempts: { attempt: number; adapter: string; outcome: string; verdict: string; branch: string }[];
  selection: 'none' | { chosen: number; ranked: { attempt: number; key: { verdict: string } }[] };
}

describe('run --attempts 2 over both real providers, on their model doubles', () => {
  it('claude passes the check and codex fails it: claude is chosen on the verdict, and land <run> lands it', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['grep -qx forty-two answer.txt'] });
    await repository.git('config', 'user.name', 'Operator One');
    await repository.git('config', 'user.email', 'operator@example.invalid');
    const operatorHome = await scratch.make('statecraft-many-operator-home');
    const env = {
      ...claude.environment('write-answer', operatorHome),
      OPENAI_BASE_URL: codexDouble.baseUrlFor('exec-touch'),
      OPENAI_API_KEY: codexDouble.apiKey,
    };
    const ran = await runStatecraft(
      [
        'run',
        repository.path,
        '--adapter',
        'claude-code',
        '--adapter',
        'codex',
        '--attempts',
        '2',
        '--accept',
        '--prompt',
        'Write the answer.',
        '--deadline',
        '120s',
        '--json',
      ],
      { home: targets.home.path, env, timeoutMs: 300_000 },
    );
    expect(ran.exitCode, ran.stderr).toBe(0);
    const many = parseJson<Many>(ran);
    expect(many.attempts.map((row) => [row.attempt, row.adapter, row.outcome, row.verdict])).toEqual([
      [1, 'claude-code', 'completed', 'accepted'],
      [2, 'codex', 'completed', 'failed'],
    ]);
    expect(many.selection !== 'none' && many.selection.chosen).toBe(1);
    expect(many.selection !== 'none' && many.selection.ranked.map((entry) => entry.key.verdict)).toEqual(['accepted', 'failed']);

    const landed = await runStatecraft(['land', repository.path, many.runId, '--json'], { home: targets.home.path, timeoutMs: 60_000 });
    expect(landed.exitCode, landed.stdout + landed.stderr).toBe(0);
    expect(parseJson<{ attempt: number }>(landed).attempt).toBe(1);
    expect(readFileSync(join(repository.path, 'answer.txt'), 'utf8')).toBe('forty-two\n');
  });
});
