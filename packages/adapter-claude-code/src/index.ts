/**
 * @statecraft/adapter-claude-code — the first provider behind the seam: an adapter executable
 * that runs Claude Code (`claude --print --output-format stream-json …`) and speaks the protocol.
 *
 * Modules:
 * - manifest.ts                     the manifest: tokens, commands, credential path, managed paths, prerequisites (R10.5, R10.6)
 * - paths.ts                        where the bundled executable, scenarios, recorded streams and the pinned claude live
 * - adapter/main.ts                 the executable's entry: `run --request <file>`, prompt on stdin; `hook --deny-unseen`
 * - adapter/unmatched-deny-rule.ts  a deny rule claude accepts and never matches (`Write(…)`): refused before claude starts, naming the one that holds
 * - adapter/deny-unseen-hook.ts     while deny rules exist, a Bash command that hides what it runs from them is blocked (the seam's reading)
 * - adapter/jitless-schemas.ts      zod's per-schema JIT off, set before any schema is built: one parse each does not pay it back
 * - adapter/start-session.ts        request (opened by the seam's kit) → provider → settings file, private config → argv → session
 * - adapter/provider.ts             `claude`, resolved by the seam's kit (R10.7); its version is read from its own init (R10.2)
 * - adapter/settings-document.ts    allow/deny rules and hooks as a Claude Code settings document (R10.1)
 * - adapter/whole-tool-rule.ts      a deny rule naming a whole tool: blocked by a hook, since claude would remove the tool (R10.3)
 * - adapter/settings-file.ts        the private, exclusive, 0600 settings file outside the workspace (R10.1)
 * - adapter/config-directory.ts     the attempt's private CLAUDE_CONFIG_DIR beside it, the operator's login linked in
 * - adapter/argv.ts                 claude's argv; refuses a second --settings (R10.1)
 * - adapter/run-session.ts          runs claude (started by the kit's startProvider with node's spawn), translates, cleans up
 * - adapter/native-events.ts        the native stream-json shapes the mapping reads
 * - adapter/native-stream-mapper.ts native events → protocol events (R10.2, R10.3)
 * - adapter/terminal-state.ts       the provider's ending in neutral terms (R10.4)
 * - adapter/event-writer.ts         NDJSON out, protocol + seq stamped, schema-checked
 * - adapter/event-draft.ts          an event before the writer stamps it (protocol, seq)
 * - suite/altered-streams.ts        the recorded stream, altered one defect at a time for rows 4 and 5
 * - suite/measure-tokens.ts         each declared token measured against the pinned provider
 * - suite/measure-workspace-write.ts workspace-write measured live: edits land in the workspace with no allow rule, a write beside it does not
 * - model-double/*                  a scripted Anthropic Messages API server on 127.0.0.1 (tests, the suite)
 * - suite-driver.ts                 how the negative suite provokes this adapter (live and replayed)
 *
 * What this package does not claim: that the session cannot write outside the workspace when it
 * runs without the evidence boundary (`--boundary none`: `workspace-write` is then not applied, and
 * claude's own permission prompts are all that stands); that the allowlist in force is observable
 * (it is recorded `not-recorded`, R10.3); that a deny rule sees what the seam's shell reading does
 * not (a program another starts, `git -C . push`, a git alias: docs/providers.md); containment of
 * hostile code (R5.3).
 */
export { CLAUDE_CODE_MANIFEST } from './manifest.js';
export {
  CLAUDE_CODE_ADAPTER_FILE,
  claudeCodeAdapterPath,
  scenariosDirectory,
  scenarioPath,
  recordedStreamsDirectory,
  replayClaudePath,
  pinnedClaudePath,
} from './paths.js';
export { buildClaudeArgv, BASE_CLAUDE_ARGS } from './adapter/argv.js';
export type { ClaudeArgv, ClaudeInvocation } from './adapter/argv.js';
export { settingsDocumentFor } from './adapter/settings-document.js';
export type { ClaudeSettingsDocument } from './adapter/settings-document.js';
export { terminalStateFor } from './adapter/terminal-state.js';
export { NativeStreamMapper } from './adapter/native-stream-mapper.js';
export type { MappedLine, MapperContext } from './adapter/native-stream-mapper.js';
export { startModelDouble, MODEL_DOUBLE_API_KEY } from './model-double/server.js';
export type { ModelDouble, DoubleRequestLog } from './model-double/server.js';
export { loadScenario, loadScenarios, ScenarioSchema, ScriptedReplySchema } from './model-double/scenario.js';
export type { Scenario, ScriptedReply } from './model-double/scenario.js';
export { claudeCodeSuiteDriver, CLAUDE_HANG_DEADLINE_MS } from './suite-driver.js';
export type { ClaudeCodeDriverOptions } from './suite-driver.js';
export { writeAlteredStreams } from './suite/altered-streams.js';
export type { StreamAlteration } from './suite/altered-streams.js';
// The adapter's inner steps, exported so tests can drive one session in-process against a real child.
export { runSession } from './adapter/run-session.js';
export type { SessionPlan } from './adapter/run-session.js';
export { EventWriter } from './adapter/event-writer.js';
