import { HeldUntilInit, parseNativeLine, progressDetail } from '@statecraft/adapter';
import type { CapabilityToken, MappedLine, ProviderIdentity, StreamMapperContext } from '@statecraft/adapter';
import type { EventDraft } from './event-draft.js';
import { NativeAssistantSchema, NativeInitSchema, NativeLineSchema, NativeResultSchema } from './native-events.js';
import type { NativeInit, NativeResult } from './native-events.js';
import { terminalStateFor } from './terminal-state.js';

/** `applied`: what this invocation wired up (settings file, hook events, turn cap flag, stream parsing). */
export interface MapperContext extends StreamMapperContext {
  /**
   * The permission mode the invocation asked claude for (`acceptEdits` or `bypassPermissions`
   * inside the evidence boundary, else none): `workspace-write` is applied when claude's init
   * reports that mode, and not otherwise (R2.4, R12).
   */
  permissionModeAsked: string | null;
}

export type { MappedLine } from '@statecraft/adapter';

/** Progress kinds for native `system` subtypes; the rest are `notice`. */
const SYSTEM_KINDS: Readonly<Record<string, string>> = {
  hook_started: 'hook',
  hook_response: 'hook',
  // The mid-stream notice of a denial: progress, and the refusal itself (refusalAtNotice).
  permission_denied: 'permission-denied-notice',
};

/** How many calls without a result are remembered for the notices that may name them. */
const CALLS_HELD = 1024;

/** What identifies a native event in its summary, when it is too large to carry whole. */
function summaryHead(json: unknown): Record<string, unknown> {
  const { type, subtype } = json as { type?: unknown; subtype?: unknown };
  return { type, ...(subtype === undefined ? {} : { subtype }) };
}

/**
 * Maps Claude Code's native stream-json onto protocol events (R10.2, R10.3), one line at a
 * time. Lines before `system/init` are held so the init is always first; after the terminal
 * `result` nothing is mapped. A line that is not JSON, or a `result` lacking what the ending is
 * read from, is `malformed`: the adapter cannot stand behind anything it would emit for it.
 */
export class NativeStreamMapper {
  private init: NativeInit | undefined;
  private readonly gate = new HeldUntilInit();
  private ended = false;
  /** The tool-use ids refused as claude told of them, each skipped once in the terminal list. */
  private readonly refusedAtNotice = new Set<string>();
  /** Each call's tool and input as claude's assistant message gave them, until its result: what a notice refers to. */
  private readonly pendingCalls = new Map<string, { tool: unknown; input: unknown }>();

  constructor(private readonly context: MapperContext) {}

  get sawInit(): boolean {
    return this.init !== undefined;
  }

  mapLine(line: string): MappedLine {
    if (this.ended || line.trim() === '') return { kind: 'ignored' };
    const parsed = parseNativeLine(line, NativeLineSchema);
    if (parsed.kind === 'malformed') return parsed;
    const { json } = parsed;
    const { type, subtype } = parsed.native;
    if (type === 'system' && subtype === 'init') return this.mapInit(json);
    if (type === 'result') return this.mapResult(json);
    this.noteCalls(type, json);
    const detail = progressDetail(json, line, summaryHead(json));
    const refusal =
      type !== 'system'
        ? undefined
        : subtype === 'permission_denied'
          ? this.refusalAtNotice(json)
          : subtype === 'hook_response'
            ? this.refusalAtHookBlock(json)
            : undefined;
    return this.release([this.progressFor(type, subtype, json, detail), ...(refusal === undefined ? [] : [refusal])]);
  }

  /** At the end of a native stream that never sent its init: an init naming what is unknown, then what was held. */
  finish(): EventDraft[] {
    if (this.init !== undefined) return [];
    this.init = { type: 'system', subtype: 'init', tools: [] };
    return this.gate.open(this.initEvent(undefined));
  }

  private mapInit(json: unknown): MappedLine {
    const parsed = NativeInitSchema.safeParse(json);
    if (!parsed.success) return { kind: 'malformed', reason: 'a system/init event without its tool list' };
    if (this.init !== undefined) return this.release([this.progressFor('system', 'init', json, json)]);
    this.init = parsed.data;
    return { kind: 'events', events: this.gate.open(this.initEvent(parsed.data)) };
  }

  private mapResult(json: unknown): MappedLine {
    const parsed = NativeResultSchema.safeParse(json);
    if (!parsed.success) return { kind: 'malformed', reason: 'a result event without subtype, is_error and permission_denials' };
    this.ended = true;
    const before = this.init === undefined ? this.finish() : [];
    return { kind: 'ending', events: [...before, ...this.refusalsFor(parsed.data), this.resultFor(parsed.data)] };
  }

  private release(events: EventDraft[]): MappedLine {
    return { kind: 'events', events: this.gate.release(events) };
  }

  private initEvent(init: NativeInit | undefined): EventDraft {
    const detail: Record<string, unknown> = {};
    if (init !== undefined) {
      const { model, permissionMode, cwd, apiKeySource, claude_code_version, session_id } = init;
      Object.assign(detail, { model, permissionMode, cwd, apiKeySource, claudeCodeVersion: claude_code_version, sessionId: session_id });
    } else detail.missing = 'the provider stream ended without a system/init event';
    return {
      type: 'init',
      adapter: this.context.adapter,
      provider: this.providerIdentity(init),
      requested: { capabilities: this.context.requested },
      // Without the provider's init nothing was confirmed applied (R2.4).
      applied: {
        capabilities: init === undefined ? [] : this.appliedCapabilities(init),
        tools: init === undefined ? 'not-recorded' : init.tools,
        // Claude Code does not report the allowlist in force; never restate the request (R10.3).
        allowlist: 'not-recorded',
      },
      // Through JSON once, so fields claude did not send are absent rather than `undefined`.
      detail: JSON.parse(JSON.stringify(detail)) as Record<string, unknown>,
    };
  }

  /**
   * The provider's name and digest as resolved, its version as claude's own init states it (R10.2):
   * the provider's claim either way, and the digest is what binds a qualification (R10.7). No
   * init, or one without a version: `not-recorded`, never a guess.
   */
  private providerIdentity(init: NativeInit | undefined): ProviderIdentity {
    const stated = init?.claude_code_version;
    return { ...this.context.provider, version: stated !== undefined && stated !== '' ? stated : 'not-recorded' };
  }

  /** What the invocation wired up, with `workspace-write` only where claude confirmed the mode asked. */
  private appliedCapabilities(init: NativeInit): CapabilityToken[] {
    const editsAccepted = this.context.permissionModeAsked !== null && init.permissionMode === this.context.permissionModeAsked;
    return editsAccepted ? [...this.context.applied, 'workspace-write'] : this.context.applied;
  }

  /** `json` is read for tool names; `detail` is what the event carries (the native event, or its summary). */
  private progressFor(type: string, subtype: string | undefined, json: unknown, detail: unknown): EventDraft {
    if (type === 'assistant') {
      const assistant = NativeAssistantSchema.safeParse(json);
      const tools = assistant.success
        ? assistant.data.message.content.filter((block) => block.type === 'tool_use' && block.name !== undefined).map((block) => block.name as string)
        : [];
      return { type: 'progress', kind: tools.length > 0 ? 'tool-use' : 'message', tools, detail };
    }
    if (type === 'user') return { type: 'progress', kind: 'tool-result', tools: [], detail };
    if (type === 'system') return { type: 'progress', kind: SYSTEM_KINDS[subtype ?? ''] ?? 'notice', tools: [], detail };
    return { type: 'progress', kind: 'native', tools: [], detail };
  }

  /** Calls the assistant makes are remembered by id until their result comes back (at most CALLS_HELD). */
  private noteCalls(type: string, json: unknown): void {
    const content = (json as { message?: { content?: unknown } }).message?.content;
    if (!Array.isArray(content)) return;
    for (const block of content as { type?: unknown; id?: unknown; name?: unknown; tool_use_id?: unknown; input?: unknown }[]) {
      if (type === 'assistant' && block.type === 'tool_use' && typeof block.id === 'string') {
        this.pendingCalls.set(block.id, { tool: block.name, input: block.input });
        if (this.pendingCalls.size > CALLS_HELD) this.pendingCalls.delete(this.pendingCalls.keys().next().value as string);
      }
      if (type === 'user' && block.type === 'tool_result' && typeof block.tool_use_id === 'string') this.pendingCalls.delete(block.tool_use_id);
    }
  }

  /**
   * A denial refused as claude tells of it: a session that never reaches its result (the agent
   * kills its claude, the deadline) keeps it. It reads as the terminal list's entry does (the
   * tool, the call's id, its input as the assistant's call gave it) with the notice whole. Only a
   * notice naming its tool and call can be matched to the terminal list; one that does not stays
   * progress, and the list counts it.
   */
  private refusalAtNotice(json: unknown): EventDraft | undefined {
    const { tool_name: tool, tool_use_id: id } = json as { tool_name?: unknown; tool_use_id?: unknown };
    if (typeof tool !== 'string' || tool === '' || typeof id !== 'string') return undefined;
    return this.refusedNow(tool, id, 'notice', json);
  }

  /**
   * A `PreToolUse` hook's block (exit 2) sends no notice, and its `hook_response` names the tool, not
   * the call: it is refused as it arrives only when one call of that tool awaits its result, so
   * the call is known; else the terminal list counts it.
   */
  private refusalAtHookBlock(json: unknown): EventDraft | undefined {
    const { hook_name: name, exit_code: exitCode } = json as { hook_name?: unknown; exit_code?: unknown };
    if (exitCode !== 2 || typeof name !== 'string' || !name.startsWith('PreToolUse:')) return undefined;
    const tool = name.slice('PreToolUse:'.length);
    const waiting = [...this.pendingCalls].filter(([, call]) => call.tool === tool);
    const [only] = waiting;
    if (tool === '' || waiting.length !== 1 || only === undefined) return undefined;
    return this.refusedNow(tool, only[0], 'hook', json);
  }

  /** The refusal of one call, once: it reads as the terminal list's entry does, with what told of it whole. */
  private refusedNow(tool: string, id: string, told: 'notice' | 'hook', json: unknown): EventDraft | undefined {
    if (this.refusedAtNotice.has(id)) return undefined;
    this.refusedAtNotice.add(id);
    const input = this.pendingCalls.get(id)?.input;
    return { type: 'refusal', tool, verbatim: { tool_name: tool, tool_use_id: id, ...(input === undefined ? {} : { tool_input: input }), [told]: json } };
  }

  /** One refusal per terminal denial, verbatim and once (R10.2): a call refused at its notice is not counted again. */
  private refusalsFor(result: NativeResult): EventDraft[] {
    const unmatched = result.permission_denials.filter((denial) => {
      const id = denial['tool_use_id'];
      return !(typeof id === 'string' && this.refusedAtNotice.delete(id));
    });
    return unmatched.map((denial) => ({
      type: 'refusal' as const,
      tool: typeof denial.tool_name === 'string' && denial.tool_name !== '' ? denial.tool_name : ('not-recorded' as const),
      verbatim: denial,
    }));
  }

  private resultFor(result: NativeResult): EventDraft {
    const detail: Record<string, unknown> = { permission_denials: result.permission_denials };
    for (const key of ['num_turns', 'total_cost_usd', 'usage', 'api_error_status', 'stop_reason'] as const) {
      if (result[key] !== undefined) detail[key] = result[key];
    }
    const draft: EventDraft = {
      type: 'result',
      terminal: terminalStateFor(result),
      claim: { status: result.subtype, isError: result.is_error, reason: result.terminal_reason ?? 'not-recorded', detail },
      turns: result.num_turns ?? 'not-recorded',
    };
    // An absent cost is omitted, so the supervisor records `unknown`, never zero (R4 row 5).
    if (result.total_cost_usd !== undefined) draft.cost = { usd: result.total_cost_usd };
    if (result.usage !== undefined) draft.usage = result.usage;
    return draft;
  }
}
