/**
 * @statecraft/adapter-codex — the second provider behind the seam: an adapter executable that runs
 * the OpenAI Codex CLI (`codex exec --json`, the prompt on stdin) and speaks the protocol (R14.1).
 *
 * Modules:
 * - manifest.ts                     the manifest: tokens (each measured), commands, credential path, managed paths, prerequisites,
 *                                   the provider's identity files (the native binary behind the npm launcher, R3.1)
 * - paths.ts                        where the bundled executable, scenarios, recorded streams and the pinned codex live
 * - adapter/main.ts                 the executable's entry: `run --request <file>`, and `hook --policy …` (the PreToolUse hook)
 * - adapter/start-session.ts        request (opened by the seam's kit) → provider → private CODEX_HOME and config document → argv → session
 * - adapter/provider.ts             `codex` and how it states its version; resolved by the seam's kit (R10.7)
 * - adapter/codex-home.ts           the private per-attempt directory in the attempt's TMPDIR: CODEX_HOME with its 0600 config document, Codex's TMPDIR, the channel (R10.1)
 * - adapter/config-document.ts      the one config document: model provider, workspace-write sandbox, the hook (R10.1)
 * - adapter/argv.ts                 codex's argv: exec --json, hooks trusted for this invocation only
 * - adapter/tool-rules.ts           the request's `Tool(pattern)` rules, as the hook applies them to a Bash call
 * - adapter/hook-policy.ts          what the hook enforces, carried in its own command line
 * - adapter/pre-tool-use-hook.ts    the hook: denies, and records each denial in the private channel first (R14.2)
 * - adapter/denial-record.ts        the shape of one denial record in the channel
 * - adapter/denial-channel.ts       the adapter's reading end of the channel: each denial once, as a refusal
 * - adapter/denial-watch.ts         the channel watched on its own, so a denial is a refusal as soon as it is recorded (R14.2)
 * - adapter/denial-acknowledgement.ts  how far the adapter has written the channel out: the hook answers Codex only after its record (R14.2)
 * - adapter/run-session.ts          runs codex (started by the kit's startProvider with node's spawn), translates, reads the channel, cleans up
 * - adapter/native-events.ts        the `--json` shapes the mapping reads
 * - adapter/native-stream-mapper.ts native events → protocol events (the table in decision 0060)
 * - adapter/terminal-state.ts       the provider's ending in neutral terms (R10.4)
 * - model-double/*                  a scripted OpenAI Responses-API server on 127.0.0.1 (tests, the suite), its paths and key drawn per run
 * - suite/altered-streams.ts        the recorded stream, altered one defect at a time (rows 4 and 5, fake providers)
 * - suite/measure-tokens.ts         each declared token measured against the pinned provider (row 6)
 * - suite-driver.ts                 how the negative suite provokes this adapter (live and replayed)
 *
 * What this package does not claim: a refusal that Codex's own sandbox or approval policy made (it
 * reports those only as text: they are not refusals here, R14.2); a turn cap or a cost (Codex has
 * neither); that the provider's identity covers more of its install than the launcher, the native
 * binary and the bubblewrap the manifest declares (`rg`, the code-mode and voice hosts are not
 * bound); that a deny rule sees a program run by another from its arguments (`find -exec`, an
 * interpreter's `-c`, a script) or one copied or linked under another name (`cp /usr/bin/touch t;
 * ./t`): a rule matches the first words of each simple command as bash reads it, and while deny
 * rules exist whatever that reading is not sure of — a wrapper or a shell, a shell keyword, a
 * builtin that runs code or evaluates a variable named by its arguments, a program word the shell
 * expands, a substitution, `${…}` beyond a plain name, an unquoted parenthesis — is denied unseen;
 * that the hook sees `exec_command`'s `shell` or `workdir` (its input carries the command alone:
 * Codex 0.171.0 ran an unknown shell as /bin/sh here; zsh, absent here, was not measured);
 * containment of hostile code (R5.3).
 */
export { CODEX_MANIFEST } from './manifest.js';
export { CODEX_ADAPTER_FILE, codexAdapterPath, scenariosDirectory, scenarioPath, recordedStreamsDirectory, replayCodexPath, pinnedCodexPath } from './paths.js';
export { buildCodexArgv } from './adapter/argv.js';
export { configDocumentFor } from './adapter/config-document.js';
export { encodeHookPolicy, decodeHookPolicy, HookPolicySchema } from './adapter/hook-policy.js';
export type { HookPolicy } from './adapter/hook-policy.js';
export { parseToolRules, matchingDenyRule, allowedBy, permittedUnderStrict } from './adapter/tool-rules.js';
export { plainSimpleCommand, unjudgeableUnderDeny } from '@statecraft/adapter';
export { terminalStateFor } from './adapter/terminal-state.js';
export { NativeStreamMapper } from './adapter/native-stream-mapper.js';
export type { MappedLine, MapperContext, CodexConfiguration } from './adapter/native-stream-mapper.js';
export { DenialSchema } from './adapter/denial-record.js';
export { acknowledgeChannel } from './adapter/denial-acknowledgement.js';
export type { Denial } from './adapter/denial-record.js';
export { startModelDouble } from './model-double/server.js';
export type { ModelDouble, DoubleRequestLog } from './model-double/server.js';
export { loadScenario, loadScenarios, ScenarioSchema, ScriptedReplySchema } from './model-double/scenario.js';
export type { Scenario, ScriptedReply } from './model-double/scenario.js';
export { codexSuiteDriver, CODEX_HANG_DEADLINE_MS } from './suite-driver.js';
export type { CodexDriverOptions } from './suite-driver.js';
export { writeAlteredStreams } from './suite/altered-streams.js';
export type { StreamAlteration } from './suite/altered-streams.js';
