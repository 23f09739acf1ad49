import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// A hostile pass on the reviewer's page and the export (issue 32): a refusal's `verbatim` is the
// provider's own record of it, the agent's tool input included, so its nesting is the agent's.
// Ten thousand levels (20 kB) overflow any recursive stringify. The protocol reads such a line as
// malformed (the attempt is interrupted), but the kept stream is intact and matches its record:
// the page and the log must say so and show the timeline, not call the stream missing and hide it.

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();
const home = () => ({ home: targets.home.path, timeoutMs: 120_000 });
const DEPTH = 10_000;
let repository: string;
let runId: string;
let remove: () => Promise<void>;

beforeAll(async () => {
  const adapter = await createScriptedAdapter(
    'deep-refusal',
    [
      'init();',
      // Written as text: the adapter's own JSON.stringify could not write it either.
      `process.stdout.write('{"protocol":1,"seq":' + (seq++) + ',"type":"refusal","tool":"Bash","verbatim":{"tool_input":{"command":"git push","options":' + '['.repeat(${DEPTH}) + ']'.repeat(${DEPTH}) + '}}}\\n');`,
      "emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });",
    ].join('\n'),
  );
  remove = adapter.remove;
  repository = (await targets.fresh()).path;
  const run = await runStatecraft(['run', repository, '--adapter', adapter.executable, '--prompt', 'hi', '--json'], home());
  runId = parseJson<{ runId: string }>(run).runId;
}, 180_000);
afterAll(async () => remove());

describe('an attempt whose refusal is nested past any stringify', () => {
  it('run show --html writes its page, the stream not called missing and the refusal in the timeline', async () => {
    const path = join(await scratch.make('statecraft-deep-page'), 'page.html');
    const show = await runStatecraft(['run', 'show', repository, runId, '--html', '-o', path], home());
    // Exit 1: the deep line is malformed by the protocol's nesting bound, so the attempt reads interrupted.
    expect(show.exitCode, show.stderr + show.stdout).toBe(1);
    const page = await readFile(path, 'utf8');
    expect(page, 'the kept stream is not said to be missing').not.toContain('Maximum call stack');
    expect(page, 'the timeline shows the refusal').toContain('refused: Bash');
  });

  it('run log shows its timeline, the stream verified', async () => {
    const log = await runStatecraft(['run', 'log', repository, runId], home());
    expect(log.exitCode, log.stderr + log.stdout.slice(-2000)).toBe(0);
    expect(log.stdout).not.toContain('Maximum call stack');
  });

  it('export writes its bundle, which verifies', async () => {
    const bundle = join(await scratch.make('statecraft-deep-export'), 'attempt.tar');
    const exported = await runStatecraft(['export', repository, runId, '-o', bundle], home());
    expect(exported.exitCode, exported.stderr).toBe(0);
    const verified = await runStatecraft(['verify', bundle], { home: join(await scratch.make('statecraft-no-home'), 'none') });
    expect(verified.exitCode, verified.stdout).toBe(0);
  });
});
