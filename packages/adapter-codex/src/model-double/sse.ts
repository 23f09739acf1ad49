import type { Scenario, ScriptedReply } from './scenario.js';

type Answerable = Extract<ScriptedReply, { kind: 'text' | 'exec' | 'write-stdin' | 'apply-patch' | 'code' }>;

/** An output item of a Responses-API response, as far as the double writes them. */
type OutputItem =
  | { type: 'message'; id: string; role: 'assistant'; content: Array<{ type: 'output_text'; text: string; annotations: [] }> }
  | { type: 'function_call'; id: string; call_id: string; name: 'exec_command' | 'write_stdin'; arguments: string }
  | { type: 'custom_tool_call'; id: string; call_id: string; name: 'apply_patch' | 'exec'; input: string };

function sseEvent(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** The arguments of a tool call, as the model writes them (snake_case, only what the reply sets). */
function callArguments(reply: Extract<Answerable, { kind: 'exec' | 'write-stdin' }>, sessionId: number): Record<string, unknown> {
  const waited = reply.yieldTimeMs === undefined ? {} : { yield_time_ms: reply.yieldTimeMs };
  if (reply.kind === 'write-stdin') return { session_id: sessionId, chars: reply.chars, ...waited };
  return { cmd: reply.cmd, ...(reply.tty === undefined ? {} : { tty: reply.tty }), ...waited };
}

/**
 * The output items a reply stands for; ids are derived from the request number, so runs repeat.
 * `sessionId`: the last session codex reported in the conversation, for a `write_stdin` call.
 */
function outputItemsFor(reply: Answerable, requestNumber: number, sessionId = 0): OutputItem[] {
  const suffix = String(requestNumber).padStart(4, '0');
  const items: OutputItem[] = [];
  const text = reply.kind === 'exec' || reply.kind === 'text' ? reply.text : undefined;
  if (text !== undefined)
    items.push({ type: 'message', id: `msg_double_${suffix}`, role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] });
  // Codex takes its edit tool and its JavaScript tool as freeform calls (docs/facts.md items 32, 33).
  if (reply.kind === 'apply-patch' || reply.kind === 'code') {
    const [name, input] = reply.kind === 'apply-patch' ? (['apply_patch', reply.patch] as const) : (['exec', reply.source] as const);
    items.push({ type: 'custom_tool_call', id: `ctc_double_${suffix}`, call_id: `call_double_${suffix}`, name, input });
  } else if (reply.kind !== 'text') {
    items.push({
      type: 'function_call',
      id: `fc_double_${suffix}`,
      call_id: `call_double_${suffix}`,
      name: reply.kind === 'exec' ? 'exec_command' : 'write_stdin',
      arguments: JSON.stringify(callArguments(reply, sessionId)),
    });
  }
  return items;
}

/**
 * The server-sent events of one streamed response (docs/facts.md item 20): `response.created`,
 * per item `response.output_item.added` (a message's text then as `response.output_text.delta`)
 * and `response.output_item.done`, then `response.completed` carrying the usage.
 */
export function sseEventsFor(reply: Answerable, usage: Scenario['usage'], requestNumber: number, sessionId = 0): string[] {
  const id = `resp_double_${String(requestNumber).padStart(4, '0')}`;
  const events = [sseEvent('response.created', { response: { id, status: 'in_progress' } })];
  outputItemsFor(reply, requestNumber, sessionId).forEach((item, outputIndex) => {
    if (item.type === 'message') {
      events.push(sseEvent('response.output_item.added', { output_index: outputIndex, item: { ...item, content: [] } }));
      const text = item.content[0]?.text ?? '';
      events.push(sseEvent('response.output_text.delta', { item_id: item.id, output_index: outputIndex, content_index: 0, delta: text }));
    } else {
      const empty = item.type === 'function_call' ? { arguments: '' } : { input: '' };
      events.push(sseEvent('response.output_item.added', { output_index: outputIndex, item: { ...item, ...empty } }));
    }
    events.push(sseEvent('response.output_item.done', { output_index: outputIndex, item }));
  });
  const total = usage.inputTokens + usage.outputTokens;
  events.push(
    sseEvent('response.completed', {
      response: {
        id,
        status: 'completed',
        usage: {
          input_tokens: usage.inputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: usage.outputTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: total,
        },
      },
    }),
  );
  return events;
}
