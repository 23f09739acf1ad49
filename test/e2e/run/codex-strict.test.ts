import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioSchema } from '@statecraft/adapter-codex';
import { useLiveCodex } from '../../fixtures/live-codex.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

const scratch = scratchDirectories();

// `--permissions strict` with the real pinned codex behind the bundled adapter, its model double
// asking for shell commands: with no `--allow` rule nothing beyond what Codex permits itself runs
// (Codex's own edit tool), under the evidence boundary and without it; each denied call is a refusal.

const codex = useLiveCodex(scratch, () => [
  ...['touch', 'ls-then-touch'].map((name) =>
    ScenarioSchema.parse({
      name: `strict-${name}`,
      description: name === 'touch' ? 'Asks for one shell command that writes the workspace.' : 'Lists the workspace into a file, then touches a file.',
      replies: [
        ...(name === 'touch' ? [] : [{ kind: 'exec', cmd: 'ls -a > listed.txt' }]),
        { kind: 'exec', cmd: 'touch pwned' },
        { kind: 'text', text: 'All done.' },
      ],
    }),
  ),
  ScenarioSchema.parse({
    name: 'strict-code',
    description: "Runs touch from Codex's JavaScript tool, which calls its shell tool.",
    replies: [
      { kind: 'code', source: 'const r = await tools.exec_command({ cmd: "touch pwned" }); text(JSON.stringify(r));' },
      { kind: 'text', text: 'All done.' },
    ],
  }),
  ScenarioSchema.parse({
    name: 'strict-edit',
    description: "Adds a file with Codex's own edit tool, then answers.",
    replies: [
      { kind: 'apply-patch', patch: '*** Begin Patch\n*** Add File: edited.txt\n+made by apply_patch\n*** End Patch\n' },
      { kind: 'text', text: 'Edited.' },
    ],
  }),
]);
const run = (scenario: string, extra: readonly string[]) => codex.run(scenario, extra);

const boundaries = [
  ['bwrap', []],
  ['none', ['--boundary', 'none']],
] as const;

describe('statecraft run --adapter codex --permissions strict', () => {
  it.each(boundaries)(
    'refuses and records a shell command no --allow rule covers (boundary %s): the file is not made',
    async (mechanism, boundary) => {
      const { answer, value, refusals } = await run('strict-touch', ['--permissions', 'strict', ...boundary]);
      expect(value.posture.boundary.mechanism).toBe(mechanism);
      expect(value.posture.permissions).toEqual({ mode: 'strict' });
      expect(existsSync(join(value.workspace, 'pwned'))).toBe(false);
      expect(refusals.map((verbatim) => [verbatim.tool_input?.command, verbatim.reason])).toEqual([['touch pwned', 'not-allowed']]);
      expect(refusals[0]?.why).toBe('Bash "touch pwned" is not allowed: strict permissions allow no Bash call without an allow rule');
      expect(value.outcome).toBe('refused');
      expect(answer.exitCode).toBe(1);
    },
    150_000,
  );

  it.each(boundaries)(
    "refuses a shell command Codex's JavaScript tool calls, as the same command called directly (boundary %s)",
    async (_mechanism, boundary) => {
      const { answer, value, refusals } = await run('strict-code', ['--permissions', 'strict', ...boundary]);
      expect(existsSync(join(value.workspace, 'pwned'))).toBe(false);
      expect(refusals.map((verbatim) => [verbatim.tool_input?.command, verbatim.reason])).toEqual([['touch pwned', 'not-allowed']]);
      expect(value.outcome).toBe('refused');
      expect(answer.exitCode).toBe(1);
    },
    150_000,
  );

  it.each(boundaries)(
    "lets Codex's own edit tool through with no rule (boundary %s), as Claude Code's edits pass under strict",
    async (_mechanism, boundary) => {
      const { answer, value, refusals } = await run('strict-edit', ['--permissions', 'strict', ...boundary]);
      expect(readFileSync(join(value.workspace, 'edited.txt'), 'utf8')).toBe('made by apply_patch\n');
      expect(refusals).toEqual([]);
      expect(value.outcome).toBe('completed');
      expect(answer.exitCode).toBe(0);
    },
    150_000,
  );

  it.each(boundaries)(
    "lets through what --allow 'Bash(ls:*)' covers and still refuses touch (boundary %s)",
    async (_mechanism, boundary) => {
      const { value, refusals } = await run('strict-ls-then-touch', ['--permissions', 'strict', '--allow', 'Bash(ls:*)', ...boundary]);
      expect(readFileSync(join(value.workspace, 'listed.txt'), 'utf8')).toContain('README');
      expect(existsSync(join(value.workspace, 'pwned'))).toBe(false);
      expect(refusals.map((verbatim) => [verbatim.tool_input?.command, verbatim.reason])).toEqual([['touch pwned', 'not-allowed']]);
      expect(value.outcome).toBe('refused');
    },
    150_000,
  );

  it('still applies a --deny rule, recorded as that rule’s denial', async () => {
    const { value, refusals } = await run('strict-touch', ['--permissions', 'strict', '--deny', 'Bash(touch:*)']);
    expect(existsSync(join(value.workspace, 'pwned'))).toBe(false);
    expect(refusals.map((verbatim) => [verbatim.tool_input?.command, verbatim.reason, verbatim.rule])).toEqual([['touch pwned', 'deny-rule', 'Bash(touch:*)']]);
    expect(value.outcome).toBe('refused');
  }, 150_000);

  it('leaves sandboxed, the default inside the boundary, as it was: every shell command runs', async () => {
    const { answer, value, refusals } = await run('strict-ls-then-touch', []);
    expect(value.posture.permissions).toEqual({ mode: 'sandboxed' });
    expect(readFileSync(join(value.workspace, 'listed.txt'), 'utf8')).toContain('README');
    expect(existsSync(join(value.workspace, 'pwned'))).toBe(true);
    expect(refusals).toEqual([]);
    expect(value.outcome).toBe('completed');
    expect(answer.exitCode).toBe(0);
  }, 150_000);
});
