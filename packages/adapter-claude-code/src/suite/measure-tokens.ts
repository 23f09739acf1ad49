import { liveMeasurement } from '@statecraft/adapter';
import type { MeasurementContext, Provocation, TokenMeasurement } from '@statecraft/adapter';
import { measureWorkspaceWrite } from './measure-workspace-write.js';

export interface LiveProvocations {
  /** A live provocation of the named scenario with the given limits. */
  live(scenario: string, limits: Provocation['limits']): Provocation;
}

const BLOCKING_HOOK_COMMAND = 'echo blocked-by-statecraft-hook >&2; exit 2';

/**
 * Row 6 for Claude Code (R10.5): each declared token measured against the running provider
 * through the model double, one live session per token.
 */
export async function measureClaudeCodeTokens(context: MeasurementContext, provocations: LiveProvocations): Promise<TokenMeasurement[]> {
  const measure = liveMeasurement(context);
  return [
    await measure('turn-limit', provocations.live('bash-echo', { maxTurns: 1 }), (result) => {
      const reason = result.providerClaim === 'not-recorded' ? 'not-recorded' : result.providerClaim.reason;
      return {
        honored: result.terminal === 'turn-limit' && reason === 'max_turns' && result.outcome === 'interrupted',
        detail: `--max-turns 1 on a tool-calling scenario ended ${result.terminal} (terminal_reason ${String(reason)}), outcome ${result.outcome}`,
      };
    }),
    await measure('cost-report', provocations.live('completed', {}), (result) => ({
      honored: typeof result.cost === 'number' && result.cost > 0,
      detail: `a completed session reported cost ${String(result.cost)} USD`,
    })),
    await measure(
      'hook-enforcement',
      provocations.live('bash-touch', { allow: ['Bash(touch:*)'], hooks: [{ when: 'before-tool', tool: 'Bash', command: BLOCKING_HOOK_COMMAND }] }),
      (result, events) => {
        const responses = events.filter(
          (event) =>
            event.type === 'progress' &&
            event.kind === 'hook' &&
            (event.detail as { subtype?: unknown }).subtype === 'hook_response' &&
            (event.detail as { exit_code?: unknown }).exit_code === 2,
        );
        return {
          honored: responses.length > 0 && result.refusalCount > 0,
          detail: `a PreToolUse hook exiting 2 on an allowed Bash call gave ${responses.length} hook_response event(s) and ${result.refusalCount} refusal(s)`,
        };
      },
    ),
    await measure('structured-refusals', provocations.live('bash-touch', { deny: ['Bash(touch:*)'] }), (result) => {
      // The excerpt keeps a short refusal whole; a cut one (`cut`, no `verbatim`) would not be this refusal.
      const first = result.refusals[0];
      const verbatim = (first !== undefined && 'verbatim' in first ? first.verbatim : undefined) as { tool_name?: unknown; tool_use_id?: unknown } | undefined;
      const claim = result.providerClaim === 'not-recorded' ? 'not-recorded' : result.providerClaim.status;
      return {
        honored: result.refusalCount === 1 && verbatim?.tool_name === 'Bash' && typeof verbatim.tool_use_id === 'string' && result.outcome === 'refused',
        detail: `a deny rule gave ${result.refusalCount} structured refusal(s) (${JSON.stringify(verbatim ?? null)}) while the provider claimed ${claim}; outcome ${result.outcome}`,
      };
    }),
    await measure('tool-allowlist', provocations.live('completed', { removeTools: ['Bash'] }), (_result, events) => {
      const init = events.find((event) => event.type === 'init');
      const tools = init?.type === 'init' ? init.applied.tools : 'not-recorded';
      return {
        honored: tools !== 'not-recorded' && !tools.includes('Bash') && tools.length > 0,
        detail:
          tools === 'not-recorded'
            ? 'no tool set was reported'
            : `removing Bash left ${tools.length} tools in init.tools, Bash ${tools.includes('Bash') ? 'still among them' : 'not among them'}`,
      };
    }),
    await measureWorkspaceWrite(context, provocations),
  ];
}
