import type { Command } from 'commander';
import { emit } from '../answer.js';
import { productHomePath } from './load-packages.js';

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Registers `env plan` (R10.6, R11). Computing is in env-plan.ts; rendering in env-plan-render.ts. */
export function registerEnv(program: Command): void {
  const env = program
    .command('env')
    .summary("the child's environment and the adapters' managed paths")
    .description("What an adapter's child would be given, read without running anything: `env plan <target>` (see its --help).");
  env
    .command('plan')
    .summary("show each adapter's managed paths and prerequisites; claim nothing that is not ready; write nothing")
    .description(
      "For <target>, show each adapter's managed paths, its prerequisites (a command on the constructed PATH, " +
        'a qualification record for the pair, the credential path) and the names its child would receive. ' +
        'An adapter missing a prerequisite claims nothing and the absent one is named. Two adapters declaring ' +
        'the same managed path are refused, naming both and the path. Nothing is executed or written.',
    )
    .argument('<target>', 'the git repository the run would work on')
    .option('--adapter <name|path>', 'an adapter to plan (repeatable); default: every adapter known by name', collect, [])
    .option('--provider <path>', 'the provider binary of the pair, for its qualification record')
    .option(
      '--trust <public-key>',
      'count a qualification record only if this key signed it, as run would (repeatable; also STATECRAFT_TRUSTED_KEYS)',
      collect,
      [],
    )
    .option('--json', 'print one JSON document instead of text', false)
    .addHelpText(
      'after',
      `
Examples:
  statecraft env plan ./repo             every adapter known by name
  statecraft env plan ./repo --adapter claude-code --provider $(which claude)
  statecraft env plan ./repo --adapter ./my-adapter --json

JSON: { target, declaration, verdict, adapters, collisions, message, wrote }:
each adapter with its managedPaths, prerequisites, provider, qualification,
environment, allowance and claim; a refused plan also carries { refused }.
Exit: 0 every adapter may claim its paths; 1 an adapter claims nothing;
2 refused (a collision, an unreadable manifest or declaration, a target that
is not a git repository).`,
    )
    .action(async (target: string, flags: { adapter: string[]; provider?: string; trust: string[]; json: boolean }) => {
      const { envPlan } = await import('./env-plan.js');
      const answer = await envPlan({
        home: await productHomePath(),
        target,
        adapters: flags.adapter,
        ...(flags.provider === undefined ? {} : { provider: flags.provider }),
        source: process.env,
        trust: flags.trust,
      });
      emit(answer, flags.json);
    });
}
