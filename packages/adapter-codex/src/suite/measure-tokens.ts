import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { liveMeasurement } from '@statecraft/adapter';
import type { AttemptResult, MeasurementContext, ProtocolEvent, Provocation, TokenMeasurement } from '@statecraft/adapter';

export interface CodexProvocations {
  /** A live provocation of the named scenario with the given limits (and environment additions). */
  live(scenario: string, limits: Provocation['limits'], deadlineMs?: number, environment?: Record<string, string>): Provocation;
}

const BLOCKING_HOOK_COMMAND = 'echo blocked-by-statecraft-hook >&2; exit 2';

type Verbatim = { reason?: unknown; tool_input?: { command?: unknown }; rule?: unknown; hook?: { exit_code?: unknown } | null };

function firstVerbatim(result: AttemptResult): Verbatim | undefined {
  const first = result.refusals[0];
  return (first !== undefined && 'verbatim' in first ? first.verbatim : undefined) as Verbatim | undefined;
}

/** A command_execution item Codex completed for exactly this command, with its exit code. */
function commandExit(events: ProtocolEvent[], command: string): unknown {
  for (const event of events) {
    if (event.type !== 'progress') continue;
    const detail = event.detail as { type?: unknown; item?: { type?: unknown; command?: unknown; exit_code?: unknown } };
    if (
      detail.type === 'item.completed' &&
      detail.item?.type === 'command_execution' &&
      typeof detail.item.command === 'string' &&
      detail.item.command.includes(command)
    ) {
      return detail.item.exit_code;
    }
  }
  return 'no item';
}

/**
 * Row 6 for Codex (R14.1): each declared token measured against the running provider through the
 * model double, one live session per token. The three hook tokens rest on the adapter's own
 * PreToolUse hook and denial channel (R14.2); `workspace-write` on Codex's sandbox: a write in the
 * workspace succeeds, and one in the session's HOME leaves no file. That HOME is a directory the
 * measurement makes in the attempts' TMPDIR — outside Codex's workspace, writable under
 * statecraft's own boundary, and there before the session starts — so only Codex's sandbox can
 * stop the write, and the file would outlast the attempt to be seen.
 */
export async function measureCodexTokens(context: MeasurementContext, provocations: CodexProvocations): Promise<TokenMeasurement[]> {
  const measure = liveMeasurement(context);
  const home = await mkdtemp(join(context.temporaryDirectory, 'row-6-home-'));
  const outside = join(home, 'statecraft-outside.txt');
  return [
    await measure('tool-allowlist', provocations.live('exec-touch', { allow: ['Bash(echo:*)'] }), (result) => {
      const verbatim = firstVerbatim(result);
      return {
        honored:
          result.refusalCount === 1 &&
          verbatim?.reason === 'not-allowed' &&
          verbatim.tool_input?.command === 'touch statecraft-marker.txt' &&
          result.outcome === 'refused',
        detail: `an allowlist of Bash(echo:*) met a touch call: ${result.refusalCount} refusal(s) (${String(verbatim?.reason)}), outcome ${result.outcome}`,
      };
    }),
    await measure(
      'hook-enforcement',
      // The call is allowed by rule, so what blocks it is the request's hook, not strict's allowlist.
      provocations.live('exec-touch', { allow: ['Bash(touch:*)'], hooks: [{ when: 'before-tool', tool: 'Bash', command: BLOCKING_HOOK_COMMAND }] }),
      (result, events) => {
        const hooks = events.filter((event) => event.type === 'progress' && event.kind === 'hook' && (event.detail as { exit_code?: unknown }).exit_code === 2);
        return {
          honored: hooks.length === 1 && result.refusalCount === 1 && firstVerbatim(result)?.reason === 'hook',
          detail: `a before-tool hook exiting 2 on a Bash call gave ${hooks.length} hook event(s) and ${result.refusalCount} refusal(s)`,
        };
      },
    ),
    await measure('structured-refusals', provocations.live('exec-touch', { deny: ['Bash(touch:*)'] }), (result) => {
      const verbatim = firstVerbatim(result);
      const claim = result.providerClaim === 'not-recorded' ? 'not-recorded' : result.providerClaim.status;
      return {
        honored:
          result.refusalCount === 1 &&
          verbatim?.tool_input?.command === 'touch statecraft-marker.txt' &&
          verbatim.rule === 'Bash(touch:*)' &&
          result.outcome === 'refused',
        detail: `a deny rule gave ${result.refusalCount} structured refusal(s) carrying ${JSON.stringify(verbatim?.tool_input ?? null)} while the provider claimed ${claim}; outcome ${result.outcome}`,
      };
    }),
    // Both writes allowed by rule (the request is strict): only Codex's sandbox may stop the one outside.
    await measure('workspace-write', provocations.live('exec-write-outside', { allow: ['Bash(touch:*)'] }, undefined, { HOME: home }), (result, events) => {
      const inside = commandExit(events, 'touch statecraft-inside.txt');
      const wroteOutside = existsSync(outside);
      return {
        honored: inside === 0 && !wroteOutside && result.outcome === 'completed',
        detail: `in workspace-write mode a write in the workspace exited ${String(inside)}; one outside it (${outside}) ${wroteOutside ? 'was written' : 'left no file'}; outcome ${result.outcome}`,
      };
    }),
  ];
}
