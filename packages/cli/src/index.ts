/**
 * @statecraft/cli — `statecraft`: the thin command line. commander maps argv onto one function
 * per verb; each returns an Answer (a value and an exit code) rendered as text or, with --json,
 * as the same value in JSON (R11). Nothing imports this package; its entry is main.ts.
 *
 * Modules:
 * - main.ts                         the entry: registers the verbs, turns errors into messages, JSON documents and exit codes
 * - statecraft-version.ts           statecraft's own version: bound into receipts, printed by `--version`
 * - answer.ts                       Answer: what every verb returns, and how it is printed
 * - json-in-parts.ts                a --json document as consecutive pieces: a long list is never held whole as text
 * - exit-codes.ts                   0 ok, 1 finding, 2 refused, 3 usage, 4 failed (R11)
 * - errors.ts                       CliError / UsageError / IoFailure, and their --json documents
 * - operator-interrupt.ts           SIGINT, SIGTERM and SIGHUP as one AbortSignal: the operator's stop cancels, and is recorded
 * - commands/register-*.ts          each verb's commander wiring: options, help text and examples; they import no package
 * - commands/*-from-flags.ts        a verb's action (flags checked, live status, the answer printed), loaded when it runs
 * - commands/load-packages.ts       the packages below, loaded by the verb that needs them; the product home's path
 * - commands/option-parsers.ts      option values parsed without a package: durations, counts, prompts, once/collect
 * - commands/qualify.ts             `qualify`: the negative suite against a binary; a record on a full pass (R3, R4)
 * - commands/qualify-drivers.ts     which suite driver provokes a named adapter (only the CLI knows adapters by name)
 * - commands/qualifications.ts      `qualifications list | show | check` (R3.4)
 * - commands/run.ts                 `run`: plan, launch, and the account folded back from the records (R5–R9)
 * - commands/run-adapters.ts        the adapters `--adapter` knows by name
 * - commands/run-options.ts         the option checks that need a package: capability tokens, supervision overrides
 * - commands/run-show.ts            `run list` and `run show`, read-only
 * - commands/attempt-parts-ahead.ts `run list --json`'s attempts rendered a part at a time while the chain is read
 * - commands/env-plan.ts            `env plan`: the constructed environment, managed paths, prerequisites (R10.6)
 * - commands/doctor.ts              `doctor`: checks the product home and every chain; repairs nothing
 * - commands/*-render.ts            the human renderings of each verb's value
 * - zod-jitless.ts                  zod builds its schemas without code generation; imported before any verb runs
 * - json-schemas/*                  each verb's --json answer and the error documents, one zod schema each;
 *                                   the answer types are inferred from them, schema/*.schema.json generated from them
 * - render/*                        terminal helpers: the live status line, per-case progress (TTY only), untrusted text made safe to print,
 *                                   a name the child received as a line shows it, who made a candidate and what it changed in words, a provider's identity as a line shows it
 *
 * What this package does not claim: anything the packages below it do not; it decides nothing.
 */
export {};
