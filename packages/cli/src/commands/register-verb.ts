import type { Command, OptionValues } from 'commander';
import { emit, type Answer } from '../answer.js';
import { productHomePath } from './load-packages.js';

/** One option: its flags, what it does, and for one that takes a value its parser and default. */
type VerbOption =
  | readonly [flags: string, description: string]
  | readonly [flags: string, description: string, parse: (value: string, previous: unknown) => unknown, fallback?: unknown];

/** What a verb that answers once — in text, or with `--json` one document — is made of. */
export interface VerbSpec<Flags extends OptionValues, Value> {
  name: string;
  summary?: string;
  description: string;
  usage?: string;
  /** Its positional arguments, in order: the words `answer` gets. */
  arguments: readonly (readonly [name: string, description: string])[];
  /** Its options; `--json` is added after them. */
  options: readonly VerbOption[];
  /** The help's closing text: examples, the JSON document's shape, the exit codes. */
  help: string;
  answer: (words: readonly (string | undefined)[], flags: Flags, home: string) => Promise<Answer<Value>>;
}

/**
 * Registers one such verb under `parent`: its arguments and options, `--json` (on it or, for a
 * subcommand, on its parent), its help, and an action that computes the answer and emits it.
 */
export function registerVerb<Flags extends OptionValues, Value>(parent: Command, spec: VerbSpec<Flags, Value>): Command {
  const command = parent.command(spec.name);
  if (spec.summary !== undefined) command.summary(spec.summary);
  command.description(spec.description);
  if (spec.usage !== undefined) command.usage(spec.usage);
  for (const [name, description] of spec.arguments) command.argument(name, description);
  for (const [flags, description, parse, fallback] of spec.options) {
    if (parse === undefined) command.option(flags, description, flags.includes('<') ? undefined : false);
    else command.option(flags, description, parse, fallback);
  }
  command.option('--json', 'print one JSON document instead of text', false);
  command.addHelpText('after', spec.help);
  command.action(async (...parts: unknown[]) => {
    const invoked = parts.at(-1) as Command;
    const words = parts.slice(0, spec.arguments.length) as (string | undefined)[];
    const answer = await spec.answer(words, invoked.opts<Flags>(), await productHomePath());
    emit(answer, invoked.optsWithGlobals<{ json?: boolean }>().json === true);
  });
  return command;
}
