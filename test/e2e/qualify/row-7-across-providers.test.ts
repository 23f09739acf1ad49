import { symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as claudeCode from '@statecraft/adapter-claude-code';
import * as codex from '@statecraft/adapter-codex';
import { createProductHome, createSampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

/** Every temporary directory this file makes, removed when it is done. */
const scratch = scratchDirectories();

// Row 7 across providers (R14.3, R4 row 7): the same scripted behaviour — a Bash call
// `touch statecraft-marker.txt` denied by the rule Bash(touch:*), then a text answer — run through
// the Claude Code pair and the Codex pair, each against its own model double, through the built CLI.
// The two records must agree on everything but the fields that name the adapter and provider,
// timing, tokens and cost, and the provider's own words (its claim, its refusal record's shape).

let claudeDouble: claudeCode.ModelDouble;
let codexDouble: codex.ModelDouble;
let bin: string;
beforeAll(async () => {
  claudeDouble = await claudeCode.startModelDouble(await claudeCode.loadScenario(claudeCode.scenarioPath('bash-touch')));
  codexDouble = await codex.startModelDouble(await codex.loadScenario(codex.scenarioPath('exec-touch')));
  bin = await scratch.make('statecraft-row7-bin-');
  await symlink(claudeCode.pinnedClaudePath(), join(bin, 'claude'));
  await symlink(codex.pinnedCodexPath(), join(bin, 'codex'));
});
afterAll(async () => {
  await claudeDouble.stop();
  await codexDouble.stop();
});

type Json = Record<string, unknown>;

async function deniedRun(adapter: 'claude-code' | 'codex'): Promise<Json> {
  const repository = await createSampleRepository();
  scratch.keep(repository);
  const home = await createProductHome();
  scratch.keep(home);
  const env: Record<string, string> = { PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`, HOME: await scratch.make('statecraft-row7-home-') };
  if (adapter === 'claude-code') Object.assign(env, { ANTHROPIC_BASE_URL: claudeDouble.baseUrl, ANTHROPIC_API_KEY: claudeCode.MODEL_DOUBLE_API_KEY });
  else Object.assign(env, { OPENAI_BASE_URL: codexDouble.baseUrl, OPENAI_API_KEY: codexDouble.apiKey });
  const answer = await runStatecraft(
    ['run', repository.path, '--adapter', adapter, '--prompt', 'Do the scripted work.', '--deny', 'Bash(touch:*)', '--deadline', '120s', '--json'],
    { home: home.path, env, timeoutMs: 150_000 },
  );
  return parseJson<Json>(answer);
}

/** Paths (dot-separated) of every leaf where two values differ. */
function differences(left: unknown, right: unknown, at = ''): string[] {
  if (typeof left === 'object' && left !== null && typeof right === 'object' && right !== null && Array.isArray(left) === Array.isArray(right)) {
    const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
    return [...keys].flatMap((key) => differences((left as Json)[key], (right as Json)[key], at === '' ? key : `${at}.${key}`));
  }
  return JSON.stringify(left) === JSON.stringify(right) ? [] : [at];
}

/**
 * What may differ, and why: identity (adapter and provider names, versions, digests, paths), the
 * run's own identity and timing (run id, branch, workspace, target, times, digests of what it
 * wrote), tokens and cost (Claude Code reports a cost, Codex cannot), and the provider's own words:
 * its claim, its turn count, and its refusal record's shape beyond the denied command.
 */
const DECLARED_DIFFERENCES = [
  /^runId$/,
  /^(target|workspace|branch|baseCommit|headCommit)$/,
  /^(startedAt|endedAt|durationMs|deadline\.at)$/,
  /^outcomeFrom\./,
  /^refusalDigest\./,
  /^artifacts\./,
  /^provider\./,
  /^posture\.adapter\./,
  /^posture\.qualification\.reason$/,
  /^posture\.capabilities\.(applied|declared)/,
  /^posture\.environment\./,
  // Per-attempt paths in the boundary's profile and probe; the providers' managed paths differ (and may in number).
  /^posture\.boundary\.profileDigest$/,
  /^posture\.boundary\.profile\.(hidden|writable|readOnly)\.\d+\.path$/,
  /^posture\.boundary\.profile\.writable\.\d+$/,
  /^posture\.boundary\.probe\.\d+\.detail$/,
  /^posture\.coverage\.readFrom\.commit$/,
  // Where each run's chain lives and the digests of what it appended (they carry the run's identity).
  /^records\./,
  /^posture\.coverage\.allowance/,
  /^providerClaim\.(status|detail)/,
  /^cost$/,
  /^turns$/,
  /^refusals\.0\.(seq|verbatim)/,
  // Where the final message stands in each provider's stream (its words are compared).
  /^finalMessage\.seq$/,
  /^stderr/,
];

describe('row 7 across providers: the same scripted behaviour through Claude Code and Codex (R14.3)', () => {
  it('gives records that agree on everything but identity, timing, tokens, cost and the provider’s own words', async () => {
    const claude = await deniedRun('claude-code');
    const codexRecord = await deniedRun('codex');
    // The behaviour itself happened through both pairs.
    for (const record of [claude, codexRecord]) {
      expect(record).toMatchObject({ outcome: 'refused', refusalCount: 1, cause: 'none' });
      expect(record.refusals).toMatchObject([{ tool: 'Bash', verbatim: { tool_input: { command: 'touch statecraft-marker.txt' } } }]);
    }
    const differing = differences(claude, codexRecord);
    const undeclared = differing.filter((path) => !DECLARED_DIFFERENCES.some((pattern) => pattern.test(path)));
    expect(undeclared).toEqual([]);
    // And the differences are real: this is two providers, not one run twice.
    expect(differing).toEqual(expect.arrayContaining(['provider.name', 'cost']));
  }, 300_000);
});
