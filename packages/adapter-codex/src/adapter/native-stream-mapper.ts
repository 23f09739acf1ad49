import { HeldUntilInit, parseNativeLine, progressDetail } from '@statecraft/adapter';
import type { EventDraft, MappedLine, StreamMapperContext } from '@statecraft/adapter';
import type { ChannelEntry } from './denial-record.js';
import { NativeItemEventSchema, NativeLineSchema, NativeThreadStartedSchema, NativeTurnCompletedSchema, NativeTurnFailedSchema } from './native-events.js';
import type { NativeThreadStarted } from './native-events.js';
import { endsTurn, terminalStateFor } from './terminal-state.js';

/** What the adapter configured, reported in the init beside Codex's own thread id (R2.4). */
export interface CodexConfiguration {
  /** A model name, or `provider-default` when none is configured (Codex's own default; the stream never names it). */
  model: string;
  sandboxMode: 'workspace-write';
  approvalPolicy: 'never';
  /** The endpoint Codex was pointed at (OPENAI_BASE_URL, or the provider's default). */
  baseUrl: string;
  /**
   * `disabled` whenever the hook enforces anything (strict permissions, a rule or a request hook): what is typed into a
   * tty session through `write_stdin` never reaches the PreToolUse hook (docs/facts.md item 31), so
   * such a session would run commands no rule sees.
   */
  ttySessions: 'enabled' | 'disabled';
}

/** `applied`: what this invocation wired up (config document, sandbox mode, hook, denial channel). */
export interface MapperContext extends StreamMapperContext {
  configuration: CodexConfiguration;
}

export type { MappedLine } from '@statecraft/adapter';

/**
 * Progress kinds for the Codex item types measured (docs/facts.md items 21, 24, 26); any other item
 * type is kept verbatim as `native` progress rather than given a meaning nobody measured.
 */
const ITEM_KINDS: Readonly<Record<string, string>> = {
  agent_message: 'message',
  command_execution: 'tool-use',
  // Measured: a warning (unknown model metadata, the hook-trust bypass) that does not end the turn.
  error: 'notice',
};

/**
 * Maps `codex exec --json` onto protocol events, one line at a time (the table in
 * decision 0060): `thread.started` + the adapter's configuration → init;
 * items, `turn.started` and top-level `error` notices → progress; `turn.completed` → a completed
 * result with the usage; `turn.failed` → a provider-error result with the claim kept; any other
 * `turn.*` → an unmapped result. Lines before the init are held so the init is always first; after
 * the ending nothing is mapped. A line that is not JSON, or an ending lacking what it is read
 * from, is `malformed`. Refusals come from the adapter's own denial channel, never from text.
 */
export class NativeStreamMapper {
  private thread: NativeThreadStarted | undefined;
  private readonly gate = new HeldUntilInit();
  private ended = false;

  constructor(private readonly context: MapperContext) {}

  get sawInit(): boolean {
    return this.gate.opened;
  }

  mapLine(line: string): MappedLine {
    if (this.ended || line.trim() === '') return { kind: 'ignored' };
    const parsed = parseNativeLine(line, NativeLineSchema);
    if (parsed.kind === 'malformed') return parsed;
    const { json } = parsed;
    const { type } = parsed.native;
    if (type === 'thread.started') return this.mapThreadStarted(json, line);
    if (endsTurn(type)) return this.mapEnding(type, json);
    const detail = progressDetail(json, line, { type });
    return this.release([this.progressFor(type, json, detail)]);
  }

  /** Each denial the hook recorded, as a refusal carrying the denied command verbatim (R14.2); a blocking hook also as progress. */
  denials(entries: readonly ChannelEntry[]): EventDraft[] {
    return this.gate.release(
      entries.flatMap((entry): EventDraft[] => {
        if ('unreadable' in entry) return [{ type: 'refusal', tool: 'not-recorded', verbatim: entry }];
        const refusal: EventDraft = { type: 'refusal', tool: entry.tool_name === '' ? 'not-recorded' : entry.tool_name, verbatim: entry };
        if (entry.reason !== 'hook' || entry.hook === null) return [refusal];
        return [{ type: 'progress', kind: 'hook', tools: [], detail: { ...entry.hook, tool_name: entry.tool_name } }, refusal];
      }),
    );
  }

  /** At the end of a native stream that never started its thread: an init naming what is unknown, then what was held. */
  finish(): EventDraft[] {
    if (this.gate.opened) return [];
    return this.gate.open(this.initEvent());
  }

  private mapThreadStarted(json: unknown, line: string): MappedLine {
    const parsed = NativeThreadStartedSchema.safeParse(json);
    if (!parsed.success) return { kind: 'malformed', reason: 'a thread.started event without its thread_id' };
    if (this.gate.opened) return this.release([this.progressFor('thread.started', json, progressDetail(json, line, { type: 'thread.started' }))]);
    this.thread = parsed.data;
    return { kind: 'events', events: this.gate.open(this.initEvent()) };
  }

  private mapEnding(type: string, json: unknown): MappedLine {
    if (type === 'turn.completed' && !NativeTurnCompletedSchema.safeParse(json).success)
      return { kind: 'malformed', reason: 'a turn.completed event without its usage' };
    if (type === 'turn.failed' && !NativeTurnFailedSchema.safeParse(json).success)
      return { kind: 'malformed', reason: 'a turn.failed event without its error' };
    this.ended = true;
    const before = this.finish();
    return { kind: 'ending', events: [...before, this.resultFor(type, json as Record<string, unknown>)] };
  }

  private release(events: EventDraft[]): MappedLine {
    return { kind: 'events', events: this.gate.release(events) };
  }

  private initEvent(): EventDraft {
    const { configuration } = this.context;
    const detail: Record<string, unknown> = {
      model: configuration.model,
      sandboxMode: configuration.sandboxMode,
      approvalPolicy: configuration.approvalPolicy,
      baseUrl: configuration.baseUrl,
      ttySessions: configuration.ttySessions,
    };
    if (this.thread !== undefined) detail.threadId = this.thread.thread_id;
    else detail.missing = 'the provider stream ended without a thread.started event';
    return {
      type: 'init',
      adapter: this.context.adapter,
      provider: this.context.provider,
      requested: { capabilities: this.context.requested },
      // Without the provider's thread.started nothing was confirmed applied (R2.4).
      applied: {
        capabilities: this.thread === undefined ? [] : this.context.applied,
        // Codex reports no tool set; the allowlist its hook enforces is the adapter's, not observed in Codex (R10.3).
        tools: 'not-recorded',
        allowlist: 'not-recorded',
      },
      detail,
    };
  }

  /** `json` is read for the item; `detail` is what the event carries (the native event, or its summary). */
  private progressFor(type: string, json: unknown, detail: unknown): EventDraft {
    const item = NativeItemEventSchema.safeParse(json);
    if (item.success) {
      const itemType = item.data.item.type;
      let kind = ITEM_KINDS[itemType] ?? 'native';
      if (itemType === 'command_execution' && type === 'item.completed') kind = 'tool-result';
      const tools = kind === 'tool-use' && itemType === 'command_execution' && type === 'item.started' ? ['Bash'] : [];
      return { type: 'progress', kind, tools, detail };
    }
    if (type === 'turn.started') return { type: 'progress', kind: 'notice', tools: [], detail };
    // A top-level error (measured: "Reconnecting… n/5", and the message before turn.failed).
    if (type === 'error') return { type: 'progress', kind: 'provider-error-notice', tools: [], detail };
    return { type: 'progress', kind: 'native', tools: [], detail };
  }

  private resultFor(type: string, json: Record<string, unknown>): EventDraft {
    const terminal = terminalStateFor(type);
    const error = (json.error ?? {}) as { message?: unknown };
    const reason = terminal === 'completed' ? 'completed' : typeof error.message === 'string' && error.message !== '' ? error.message : 'not-recorded';
    const detail: Record<string, unknown> = { ...json };
    delete detail.type;
    const draft: EventDraft = {
      type: 'result',
      terminal,
      claim: { status: type, isError: terminal === 'completed' ? false : terminal === 'provider-error' ? true : 'not-recorded', reason, detail },
      // Codex reports no turn count.
      turns: 'not-recorded',
    };
    // No cost: Codex reports tokens only, so the supervisor records `unknown`, never zero (R4 row 5).
    if (json.usage !== undefined) draft.usage = json.usage;
    return draft;
  }
}
