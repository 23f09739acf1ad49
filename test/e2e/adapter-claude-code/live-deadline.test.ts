import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { findAttemptProcesses, isLiving } from '@statecraft/adapter';
import { superviseAdapter } from '@statecraft/run';
import { MODEL_DOUBLE_API_KEY, claudeCodeAdapterPath, loadScenario, scenarioPath, startModelDouble } from '@statecraft/adapter-claude-code';
import type { ModelDouble } from '@statecraft/adapter-claude-code';
import { baseEnvironment, NO_LIMITS, sandboxMaker, writeRequest } from '../../fixtures/claude-code-adapter-process.js';

const makeSandbox = sandboxMaker();

// Issue 4, done-when: the setsid descendant of a Bash tool call is gone after a deadline kill.
// docs/facts.md item 10: the Bash tool's commands escape claude's process group, so this is the
// supervisor's containment (R7.3) measured against the real provider.

let double: ModelDouble | undefined;
afterEach(async () => {
  await double?.stop();
  double = undefined;
});

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

describe('a deadline kill of a live Claude Code session', () => {
  it('leaves no survivor of the setsid descendant a Bash tool call started, and the attempt reads timed out (R7.2, R7.3)', async () => {
    double = await startModelDouble(await loadScenario(scenarioPath('bash-setsid')));
    const sandbox = await makeSandbox();
    const prompt = 'Do the scripted work.';
    const requestPath = await writeRequest(sandbox, prompt, { ...NO_LIMITS, allow: ['Bash'] }, null);
    const attemptTag = `statecraft-cc-deadline-${randomUUID()}`;
    const seen = new Set<number>();
    let polling: NodeJS.Timeout | undefined;
    const deadlineMs = 15_000;
    const answer = await superviseAdapter({
      executable: claudeCodeAdapterPath(),
      args: ['run', '--request', requestPath],
      workspace: sandbox.workspace,
      environment: { ...baseEnvironment(sandbox), ANTHROPIC_BASE_URL: double.baseUrl, ANTHROPIC_API_KEY: MODEL_DOUBLE_API_KEY },
      prompt,
      deadlineMs,
      attemptTag,
      onEvent: (event) => {
        // Once the Bash call is issued, watch for its descendant among the attempt's processes.
        if (event.type === 'progress' && event.tools.includes('Bash') && polling === undefined) {
          polling = setInterval(() => {
            for (const pid of findAttemptProcesses(attemptTag)) if (commandLine(pid) === 'sleep 600') seen.add(pid);
          }, 200);
        }
      },
    });
    clearInterval(polling);
    expect(answer.kind).toBe('supervised');
    if (answer.kind !== 'supervised') return;
    expect(answer.attempt.timedOut).toBe(true);
    expect(answer.attempt.durationMs).toBeGreaterThanOrEqual(deadlineMs - 50);
    // The descendant existed while the session hung: the kill had something to kill.
    expect(seen.size).toBe(1);
    for (const pid of seen) expect(isLiving(pid)).toBe(false);
    expect(findAttemptProcesses(attemptTag)).toEqual([]);
    expect(answer.attempt.survivors).toEqual([]);
  }, 90_000);
});
