import type { Scenario, ScriptedReply } from './scenario.js';

type Answerable = Extract<ScriptedReply, { kind: 'text' | 'exec' }>;

/** An output item of a Responses-API response, as far as the double writes them. */
export type OutputItem =
  | { type: 'message'; id: string; role: 'assistant'; content: Array<{ type: 'output_text'; text: string; annotations: [] }> }
  | { type: 'function_call'; id: string; call_id: string; name: 'exec_command'; arguments: string };

function sseEvent(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** The output items a reply stands for; ids are derived from the request number, so runs repeat. */
export function outputItemsFor(reply: Answerable, requestNumber: number): OutputItem[] {
  const suffix = String(requestNumber).padStart(4, '0');
  const items: OutputItem[] = [];
  const text = reply.kind === 'text' ? reply.text : reply.text;
  if (text !== undefined)
    items.push({ type: 'message', id: `msg_double_${suffix}`, role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] });
  if (reply.kind === 'exec') {
    items.push({
      type: 'function_call',
      id: `fc_double_${suffix}`,
      call_id: `call_double_${suffix}`,
      name: 'exec_command',
      arguments: JSON.stringify({ cmd: reply.cmd }),
    });
  }
  return items;
}

/**
 * The server-sent events of one streamed response (docs/facts.md item 20): `response.created`,
 * per item `response.output_item.added` (a message's text then as `response.output_text.delta`)
 * and `response.output_item.done`, then `response.completed` carrying the usage.
 */
export function sseEventsFor(reply: Answerable, usage: Scenario['usage'], requestNumber: number): string[] {
  const id = `resp_double_${String(requestNumber).padStart(4, '0')}`;
  const events = [sseEvent('response.created', { response: { id, status: 'in_progress' } })];
  outputItemsFor(reply, requestNumber).forEach((item, outputIndex) => {
    if (item.type === 'message') {
      events.push(sseEvent('response.output_item.added', { output_index: outputIndex, item: { ...item, content: [] } }));
      const text = item.content[0]?.text ?? '';
      events.push(sseEvent('response.output_text.delta', { item_id: item.id, output_index: outputIndex, content_index: 0, delta: text }));
    } else {
      events.push(sseEvent('response.output_item.added', { output_index: outputIndex, item: { ...item, arguments: '' } }));
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
