import { spawnSync } from 'node:child_process';
import { unjudgeableUnderDeny } from '@statecraft/adapter';
import { appendToChannel, awaitAcknowledgement } from './denial-acknowledgement.js';
import type { Denial } from './denial-record.js';
import { decodeHookPolicy, type HookPolicy } from './hook-policy.js';
import { HOOKED_TOOL, allowedBy, matchingDenyRule, parseToolRules, permittedUnderStrict } from './tool-rules.js';

interface HookInput {
  tool_name?: unknown;
  tool_use_id?: unknown;
  tool_input?: unknown;
}

/** Exit 2 blocks the call (docs/facts.md item 22); Codex wants the reason on stderr. */
const BLOCK = 2;

function commandOf(input: HookInput): string {
  const toolInput = input.tool_input as { command?: unknown } | undefined;
  return typeof toolInput?.command === 'string' ? toolInput.command : '';
}

/**
 * The `hook` verb of the adapter executable: the PreToolUse hook Codex runs before each tool call
 * (trusted for this invocation only, `--dangerously-bypass-hook-trust`). It denies a call a deny
 * rule matches, or — while deny rules exist — one whose command hides what it runs from them (fail
 * closed), or one the allowlist does not cover (under strict always, an empty allowlist covering
 * nothing but Codex's own edit tool), or one a request hook blocks (exit 2); each
 * denial is first appended to the attempt's private channel as a structured record (R14.2), then —
 * once the adapter says it has written the record out as a refusal, or after a short wait — reported
 * to Codex. The record is written before the answer: a denial never happens unrecorded.
 */
export function runPreToolUseHook(encodedPolicy: string, stdin: Buffer): number {
  let channel: DenialChannel | undefined;
  try {
    const policy = decodeHookPolicy(encodedPolicy);
    channel = new DenialChannel(policy.channel);
    return judgeToolCall(policy, channel, stdin);
  } catch (error) {
    // Codex runs the call when a hook fails with any exit but 2: a hook that cannot judge blocks,
    // and once its channel is known the block is recorded as every denial is.
    const why = `the PreToolUse hook failed (${(error as Error).message}); the call is blocked`;
    if (channel !== undefined && !channel.tried) {
      try {
        return channel.record({ ...unjudged, tool_input: null }, why);
      } catch {
        // The channel itself failed: the block is still answered, on stderr alone.
      }
    }
    process.stderr.write(`statecraft: ${why}\n`);
    return BLOCK;
  }
}

/** A denial of a call the hook could not read: no tool, no rule. */
const unjudged = { source: 'statecraft-pre-tool-use-hook', tool_name: '', tool_use_id: null, reason: 'fail-closed', rule: null, hook: null } as const;

/** The attempt's private denial channel, tried once per call: a failure after a record never appends a second one. */
class DenialChannel {
  tried = false;
  constructor(private readonly path: string) {}

  /**
   * Appends the denial, waits until the adapter has written it out as a refusal (or the wait ran
   * out), then answers Codex. `told`: what Codex passes on to the model; a request hook's own
   * stderr goes as it wrote it.
   */
  record(denial: Omit<Denial, 'why'>, why: string, told = `statecraft: ${why}`): number {
    this.tried = true;
    const end = appendToChannel(this.path, `${JSON.stringify({ ...denial, why })}\n`);
    awaitAcknowledgement(this.path, end);
    process.stderr.write(`${told}\n`);
    return BLOCK;
  }
}

function judgeToolCall(policy: HookPolicy, channel: DenialChannel, stdin: Buffer): number {
  let input: HookInput;
  try {
    input = JSON.parse(stdin.toString('utf8')) as HookInput;
  } catch {
    return channel.record({ ...unjudged, tool_input: stdin.toString('utf8') }, 'the PreToolUse hook input is not JSON; the call is blocked');
  }
  const tool = typeof input.tool_name === 'string' ? input.tool_name : '';
  const command = commandOf(input);
  const deny = parseToolRules(policy.deny, 'deny');
  const allow = parseToolRules(policy.allow, 'allow');
  const base = {
    source: 'statecraft-pre-tool-use-hook' as const,
    tool_name: tool,
    tool_use_id: typeof input.tool_use_id === 'string' ? input.tool_use_id : null,
    tool_input: input.tool_input ?? null,
  };
  if (deny.kind === 'refused' || allow.kind === 'refused') {
    return channel.record({ ...base, reason: 'deny-rule', rule: null, hook: null }, 'the tool rules could not be read; the call is blocked');
  }
  const denied = matchingDenyRule(deny.rules, tool, command);
  if (denied !== undefined) return channel.record({ ...base, reason: 'deny-rule', rule: denied.text, hook: null }, `denied by the rule ${denied.text}`);
  const unjudgeable = tool === HOOKED_TOOL && deny.rules.length > 0 ? unjudgeableUnderDeny(command) : undefined;
  if (unjudgeable !== undefined) {
    return channel.record(
      { ...base, reason: 'fail-closed', rule: null, hook: null },
      `denied unseen: ${unjudgeable} (deny rules ${deny.rules.map((rule) => rule.text).join(', ')} are in force)`,
    );
  }
  const notAllowed =
    policy.mode === 'strict' ? !permittedUnderStrict(allow.rules, tool, command) : allow.rules.length > 0 && !allowedBy(allow.rules, tool, command);
  if (notAllowed) {
    const why =
      allow.rules.length > 0
        ? `${tool} ${JSON.stringify(command)} is not covered by the allowed rules`
        : `${tool} ${JSON.stringify(command)} is not allowed: strict permissions allow no ${tool} call without an allow rule`;
    return channel.record({ ...base, reason: 'not-allowed', rule: null, hook: null }, why);
  }
  for (const hook of policy.hooks.filter((entry) => entry.tool === tool)) {
    const ran = spawnSync('/bin/sh', ['-c', hook.command], { input: stdin, encoding: 'utf8', stdio: ['pipe', 'inherit', 'pipe'] });
    if (ran.status === BLOCK) {
      const stderr = ran.stderr ?? '';
      const why = `blocked by the hook ${hook.command}`;
      return channel.record(
        { ...base, reason: 'hook', rule: null, hook: { command: hook.command, exit_code: BLOCK, stderr } },
        why,
        stderr.trim() || `statecraft: ${why}`,
      );
    }
  }
  return 0;
}
