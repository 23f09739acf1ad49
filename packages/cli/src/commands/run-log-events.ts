import type { z } from 'zod';
import type { LogEntrySchema } from '../json-schemas/index.js';

export type LogEntry = z.infer<typeof LogEntrySchema>;

/** How much of one text an entry keeps: a timeline line, not the whole message (the kept stream has it). */
const TEXT_BOUND = 2000;
/** A line longer than this is named by its size, not parsed: the reader's memory stays bounded. */
export const LINE_BOUND = 4 * 1024 * 1024;
/** How deep a provider's detail is searched for its words. */
const DEPTH_BOUND = 12;

/**
 * One kept stream line as a timeline entry: what kind of event, and its words. Never throws: the
 * line is the adapter's, its values the provider's and the agent's (a refusal's verbatim holds the
 * tool input the agent chose), and a reading that threw here was taken for the stream itself being
 * unreadable: the page and the log said the kept stream was missing and showed no timeline at all.
 */
export function entryOfLine(line: number, text: string): LogEntry {
  try {
    return entryOfEvent(line, text);
  } catch {
    // Whatever the line holds that the reading cannot take (a value nested past any recursion): shown as its text.
    return notAnEvent(line, text);
  }
}

function entryOfEvent(line: number, text: string): LogEntry {
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    return notAnEvent(line, text);
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return notAnEvent(line, text);
  const fields = event as Record<string, unknown>;
  const seq = typeof fields['seq'] === 'number' && Number.isInteger(fields['seq']) && fields['seq'] >= 0 ? fields['seq'] : ('not-recorded' as const);
  const base = { line, seq };
  switch (fields['type']) {
    case 'init':
      return withText({ ...base, type: 'init' }, describeInit(fields));
    case 'progress': {
      const tools = Array.isArray(fields['tools']) ? fields['tools'].filter((tool): tool is string => typeof tool === 'string') : [];
      const kind = typeof fields['kind'] === 'string' ? fields['kind'] : 'progress';
      return withCommand(withText({ ...base, type: 'progress', kind, tools }, findString(fields['detail'], TEXT_KEYS)), findCommand(fields['detail']));
    }
    case 'refusal': {
      const tool = typeof fields['tool'] === 'string' ? fields['tool'] : 'not-recorded';
      return withCommand(withText({ ...base, type: 'refusal', tools: [tool] }, stringify(fields['verbatim'])), findCommand(fields['verbatim']));
    }
    case 'result':
      return withText({ ...base, type: 'result' }, describeResult(fields));
    case 'error':
      return withText({ ...base, type: 'error' }, `${String(fields['code'])}: ${String(fields['message'])}`);
    default:
      return notAnEvent(line, text);
  }
}

/** A line past LINE_BOUND: said by its size. */
export function overlongLine(line: number, bytes: number): LogEntry {
  return { line, seq: 'not-recorded', type: 'not-an-event', text: `a line of ${String(bytes)} bytes, too long to show`, cut: false };
}

function notAnEvent(line: number, text: string): LogEntry {
  return withText({ line, seq: 'not-recorded', type: 'not-an-event' }, text);
}

const TEXT_KEYS = ['text', 'message', 'content', 'result', 'path'];

function withText(entry: Omit<LogEntry, 'cut'> & { cut?: boolean }, text: string | undefined): LogEntry {
  if (text === undefined) return { ...entry, cut: entry.cut ?? false };
  const cut = text.length > TEXT_BOUND;
  return { ...entry, text: cut ? text.slice(0, TEXT_BOUND) : text, cut: cut || (entry.cut ?? false) };
}

function withCommand(entry: LogEntry, command: string | undefined): LogEntry {
  if (command === undefined) return entry;
  const cut = command.length > TEXT_BOUND;
  return { ...entry, command: cut ? command.slice(0, TEXT_BOUND) : command, cut: entry.cut || cut };
}

function describeInit(fields: Record<string, unknown>): string {
  const adapter = fields['adapter'] as { name?: unknown; version?: unknown } | undefined;
  const provider = fields['provider'];
  const providerText =
    typeof provider === 'object' && provider !== null
      ? `${String((provider as { name?: unknown }).name)} ${String((provider as { version?: unknown }).version)}`
      : String(provider);
  return `adapter ${String(adapter?.name)} ${String(adapter?.version)}, provider ${providerText}`;
}

function describeResult(fields: Record<string, unknown>): string {
  const claim = fields['claim'] as { status?: unknown } | undefined;
  const cost = fields['cost'];
  const costText = typeof cost === 'object' && cost !== null ? `$${String((cost as { usd?: unknown }).usd)}` : 'unknown';
  return `${String(fields['terminal'])}; the provider says ${String(claim?.status)}; turns ${String(fields['turns'])}; cost ${costText}`;
}

/** The first string under one of `keys`, depth first: a message's words wherever its provider keeps them. */
function findString(value: unknown, keys: readonly string[], depth = 0): string | undefined {
  if (depth > DEPTH_BOUND || typeof value !== 'object' || value === null) return undefined;
  if (!Array.isArray(value))
    for (const key of keys) {
      const inner = (value as Record<string, unknown>)[key];
      if (typeof inner === 'string' && inner !== '') return inner;
    }
  for (const inner of Object.values(value)) {
    const found = findString(inner, keys, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The command a tool call names (`command`, a string or an argv), wherever its provider keeps it. */
function findCommand(value: unknown, depth = 0): string | undefined {
  if (depth > DEPTH_BOUND || typeof value !== 'object' || value === null) return undefined;
  if (!Array.isArray(value)) {
    const command = (value as Record<string, unknown>)['command'];
    if (typeof command === 'string' && command !== '') return command;
    if (Array.isArray(command) && command.every((word) => typeof word === 'string')) return command.join(' ');
  }
  for (const inner of Object.values(value)) {
    const found = findCommand(inner, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? 'not-recorded';
  } catch {
    return 'a value nested too deep to show here (the kept stream holds it)';
  }
}
