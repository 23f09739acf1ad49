import type { Scenario, ScriptedReply } from './scenario.js';

type Answerable = Extract<ScriptedReply, { kind: 'text' | 'tool-use' }>;

/** A Messages API message, as the non-streaming endpoint returns it. */
export interface AnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: Array<{ type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }>;
  stop_reason: 'end_turn' | 'tool_use';
  stop_sequence: null;
  usage: { input_tokens: number; output_tokens: number };
}

/** Builds the whole message a reply stands for; ids are derived from the request number, so runs repeat. */
export function messageFor(reply: Answerable, model: string, usage: Scenario['usage'], requestNumber: number): AnthropicMessage {
  const id = `msg_double_${String(requestNumber).padStart(4, '0')}`;
  const content: AnthropicMessage['content'] = [];
  if (reply.kind === 'text') content.push({ type: 'text', text: reply.text });
  else {
    if (reply.text !== undefined) content.push({ type: 'text', text: reply.text });
    content.push({ type: 'tool_use', id: `toolu_double_${String(requestNumber).padStart(4, '0')}`, name: reply.tool, input: reply.input });
  }
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: reply.kind === 'tool-use' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens },
  };
}

function sseEvent(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The server-sent events a streaming request receives (docs/facts.md item 3): message_start, one
 * start/delta/stop per content block, message_delta with the stop reason and usage, message_stop.
 */
export function sseEventsFor(message: AnthropicMessage): string[] {
  const events: string[] = [];
  const start = { ...message, content: [], stop_reason: null, usage: { input_tokens: message.usage.input_tokens, output_tokens: 1 } };
  events.push(sseEvent('message_start', { type: 'message_start', message: start }));
  message.content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push(sseEvent('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
      events.push(sseEvent('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } }));
    } else {
      events.push(
        sseEvent('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        }),
      );
      events.push(
        sseEvent('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
        }),
      );
    }
    events.push(sseEvent('content_block_stop', { type: 'content_block_stop', index }));
  });
  events.push(
    sseEvent('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: message.usage.output_tokens },
    }),
  );
  events.push(sseEvent('message_stop', { type: 'message_stop' }));
  return events;
}
