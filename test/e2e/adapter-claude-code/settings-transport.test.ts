import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildClaudeArgv, recordedStreamsDirectory, replayClaudePath, settingsDocumentFor } from '@statecraft/adapter-claude-code';
import { baseEnvironment, runAdapter, sandboxMaker } from '../../fixtures/claude-code-adapter-process.js';
import type { AdapterRunOptions } from '../../fixtures/claude-code-adapter-process.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

const makeSandbox = sandboxMaker();

// R10.1: allow and deny rules and hooks travel in a private temporary settings file — created
// exclusively, mode 0600, outside the workspace, removed afterwards even on interruption — and
// the invocation carries no second --settings. The fake claude reports what it was given.

const scratch = scratchDirectories();

interface Inspection {
  argv: string[];
  cwd: string;
  prompt: string;
  settings: { path: string; mode: number; content: unknown } | null;
}

async function inspect(options: { limits?: AdapterRunOptions['limits']; hang?: boolean; signal?: NodeJS.Signals }) {
  const sandbox = await makeSandbox({ withClaude: false });
  const report = join(await scratch.make('statecraft-inspect'), 'inspection.json');
  const environment = {
    ...baseEnvironment(sandbox),
    STATECRAFT_REPLAY_NATIVE_STREAM: join(recordedStreamsDirectory(), 'completed.jsonl'),
    STATECRAFT_REPLAY_INSPECT: report,
    ...(options.hang === true ? { STATECRAFT_REPLAY_HANG: '1' } : {}),
  };
  const run = await runAdapter({
    sandbox,
    environment,
    provider: replayClaudePath(),
    prompt: 'The prompt travels on stdin.',
    ...(options.limits !== undefined ? { limits: options.limits } : {}),
    ...(options.signal !== undefined ? { signalAfterInit: options.signal } : {}),
  });
  const inspection = JSON.parse(await readFile(report, 'utf8')) as Inspection;
  return { run, sandbox, inspection };
}

describe('the settings transport', () => {
  it('writes the rules and hooks to a 0600 file outside the workspace, runs claude in the workspace, and removes the file afterwards (R10.1, R7.1)', async () => {
    const limits = {
      allow: ['Bash(touch:*)'],
      deny: ['Bash(rm:*)', 'WebFetch'],
      hooks: [{ when: 'before-tool' as const, tool: 'Bash', command: 'exit 2' }],
    };
    const { inspection, sandbox } = await inspect({ limits });
    const settings = inspection.settings;
    expect(settings).not.toBeNull();
    if (settings === null) return;
    expect(settings.mode).toBe(0o600);
    expect(relative(sandbox.workspace, settings.path).startsWith('..')).toBe(true);
    // WebFetch, denied whole, is blocked by a hook: a deny rule would remove it, leaving no refusal.
    expect(settings.content).toEqual({
      permissions: { allow: ['Bash(touch:*)'], deny: ['Bash(rm:*)'] },
      // Above every settings file the agent may write: none of them can turn the hooks off.
      disableAllHooks: false,
      hooks: {
        PreToolUse: [
          { matcher: 'WebFetch', hooks: [{ type: 'command', command: "echo 'statecraft: the WebFetch tool is denied by the rule WebFetch' >&2; exit 2" }] },
          // While deny rules exist, the adapter itself blocks a Bash command that hides what it runs from them.
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: expect.stringMatching(/^'[^']+' '[^']+statecraft-adapter-claude-code\.cjs' 'hook' '--deny-unseen'$/) as unknown },
            ],
          },
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 2' }] },
        ],
      },
    });
    expect(existsSync(settings.path)).toBe(false);
    expect(inspection.cwd).toBe(sandbox.workspace);
    expect(inspection.prompt).toBe('The prompt travels on stdin.');
    expect(inspection.argv.join(' ')).not.toContain('The prompt');
    expect(inspection.argv.filter((arg) => arg === '--settings')).toHaveLength(1);
    expect(inspection.argv.slice(0, 5)).toEqual(['--print', '--output-format', 'stream-json', '--verbose', '--include-hook-events']);
  });

  it('removes the settings file when the adapter is interrupted with SIGTERM while claude runs (R10.1)', async () => {
    const { run, inspection } = await inspect({ hang: true, signal: 'SIGTERM' });
    expect(run.exit.code).toBe(143);
    expect(inspection.settings).not.toBeNull();
    expect(existsSync(inspection.settings?.path ?? '/')).toBe(false);
  });

  it('passes --max-turns and --disallowedTools only as the request asks (R10.1)', async () => {
    const { inspection } = await inspect({ limits: { maxTurns: 3, removeTools: ['WebSearch', 'WebFetch'] } });
    const argv = inspection.argv.join(' ');
    expect(argv).toContain('--max-turns 3');
    expect(argv).toContain('--disallowedTools WebSearch WebFetch');
  });
});

describe('the argv builder', () => {
  it('refuses a second --settings in the invocation (R10.1)', () => {
    const argv = buildClaudeArgv({
      settingsPath: '/tmp/a.json',
      maxTurns: null,
      removeTools: [],
      permissionMode: 'default',
      extraArgs: ['--settings', '/tmp/other.json'],
    });
    expect(argv).toMatchObject({ kind: 'refused', reason: 'second-settings' });
    const joined = buildClaudeArgv({
      settingsPath: '/tmp/a.json',
      maxTurns: null,
      removeTools: [],
      permissionMode: 'default',
      extraArgs: ['--settings=/tmp/other.json'],
    });
    expect(joined).toMatchObject({ kind: 'refused', reason: 'second-settings' });
  });

  it('refuses a tool name that claude would read as an option, such as a smuggled --settings (R10.1)', () => {
    const argv = buildClaudeArgv({ settingsPath: '/tmp/a.json', maxTurns: null, removeTools: ['--settings'], permissionMode: 'default' });
    expect(argv).toMatchObject({ kind: 'refused', reason: 'option-like-value' });
  });

  it('builds print mode, the structured stream, hook events and one settings file, with the prompt nowhere in argv (R1.3, R10.1)', () => {
    const argv = buildClaudeArgv({ settingsPath: '/tmp/a.json', maxTurns: 1, removeTools: ['Bash'], permissionMode: 'default' });
    expect(argv).toEqual({
      kind: 'argv',
      argv: [
        '--print',
        '--output-format',
        'stream-json',
        '--verbose',
        '--include-hook-events',
        '--settings',
        '/tmp/a.json',
        // No other settings source: the agent may write every one (claude-settings-sources.test.ts).
        '--setting-sources',
        '',
        '--max-turns',
        '1',
        '--disallowedTools',
        'Bash',
      ],
    });
  });

  it('puts allow rules, deny rules and hooks where Claude Code reads them (R10.1, R10.3)', () => {
    const document = settingsDocumentFor({ maxTurns: null, allow: ['Read'], deny: ['Bash(rm:*)'], removeTools: [], hooks: [] });
    expect(document).toEqual({ permissions: { allow: ['Read'], deny: ['Bash(rm:*)'] }, hooks: {} });
  });

  it('blocks a tool a deny rule names whole with a hook, and never gives it to --disallowedTools, which would remove it (R10.3)', () => {
    const document = settingsDocumentFor({ maxTurns: null, allow: [], deny: ['Bash', 'Bash(rm:*)'], removeTools: [], hooks: [] });
    expect(document.permissions.deny).toEqual(['Bash(rm:*)']);
    expect(document.hooks.PreToolUse).toEqual([
      { matcher: 'Bash', hooks: [{ type: 'command', command: "echo 'statecraft: the Bash tool is denied by the rule Bash' >&2; exit 2" }] },
    ]);
    const argv = buildClaudeArgv({ settingsPath: '/tmp/a.json', maxTurns: null, removeTools: [], permissionMode: 'bypass', denyRules: ['Bash', 'Bash(rm:*)'] });
    expect(argv.kind === 'argv' && argv.argv.slice(argv.argv.indexOf('--disallowedTools'))).toEqual(['--disallowedTools', 'Bash(rm:*)']);
  });
});
