import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// The human rendering escapes C1 controls (NEL U+0085, CSI U+009B), the
// Unicode line and paragraph separators and the bidi overrides an adapter puts in its words. The
// `--json` rendering of the same verbs prints them raw: JSON.stringify escapes only U+0000-U+001F,
// so an adapter's claim, refusal or message reaches the operator's terminal as an 8-bit CSI
// (`\u009b2K`: erase the line; `\u009b1A`: cursor up) or a right-to-left override, on `run --json`,
// `run show --json`, `run list --json`. JSON can carry the exact text with these escaped (`\u009b`),
// as it already does for ESC and the line break: a reader parsing it gets the same string.

const targets = useTestTargets();
const scratch = scratchDirectories();

/** Each character the product's own terminal-safe rendering treats as unsafe beyond C0 (terminal-safe-text.ts). */
const RAW_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const HOSTILE = 'ok\u009b1A\u009b2Kacceptance accepted\u0085NEL\u2028LS\u202eRLO\u2066LRI';

describe('--json output carries no raw terminal control an adapter wrote', () => {
  it('run, run show and run list --json escape C1 controls, line separators and bidi marks, and still parse to the exact words', async () => {
    const adapter = await createScriptedAdapter(
      'json-controls',
      [
        'init();',
        `emit({ type: 'progress', kind: 'message', tools: [], detail: { text: ${JSON.stringify(HOSTILE)} } });`,
        `emit({ type: 'result', terminal: 'completed', claim: { status: ${JSON.stringify(HOSTILE)}, isError: false, reason: ${JSON.stringify(HOSTILE)}, detail: {} }, turns: 1 });`,
      ].join('\n'),
    );
    scratch.keep(adapter);
    const repository = targets.repository;
    const run = await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--prompt', 'hello', '--json'], { home: targets.home.path });
    expect(run.exitCode, run.stderr).toBe(0);
    const { runId } = parseJson<{ runId: string }>(run);
    // The exact words are kept: the document parses to them.
    expect(JSON.stringify(parseJson(run))).toContain(HOSTILE.slice(0, 4));
    const show = await runStatecraft(['run', 'show', repository.path, runId, '--json'], { home: targets.home.path });
    const list = await runStatecraft(['run', 'list', repository.path, '--json'], { home: targets.home.path });
    for (const [verb, answer] of [
      ['run --json', run],
      ['run show --json', show],
      ['run list --json', list],
    ] as const) {
      const found = RAW_UNSAFE.exec(answer.stdout);
      expect(found === null ? 'none' : `U+${found[0].charCodeAt(0).toString(16).padStart(4, '0')}`, `${verb} printed a raw terminal control`).toBe('none');
    }
  });
});
