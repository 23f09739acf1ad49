import type { Request } from '@statecraft/adapter';
import { blockingHookCommand, isWholeToolRule } from './whole-tool-rule.js';

/** The part of Claude Code's settings document the adapter writes (R10.1). */
export interface ClaudeSettingsDocument {
  permissions: { allow: string[]; deny: string[] };
  /** Set (false) whenever the document carries hooks: see settingsDocumentFor. */
  disableAllHooks?: false;
  hooks: {
    PreToolUse?: Array<{ matcher: string; hooks: Array<{ type: 'command'; command: string }> }>;
  };
}

/**
 * Translates the request's neutral limits: allow rules → `permissions.allow`, deny rules with a
 * pattern → `permissions.deny` (a denied call leaves a `permission_denials` entry, R10.3), a deny
 * rule naming a whole tool → a `PreToolUse` hook that blocks its every call (whole-tool-rule.ts),
 * and each before-tool hook → a `PreToolUse` hook matched on its tool (docs/facts.md item 8). While
 * deny rules exist, `denyUnseenHook` (deny-unseen-hook.ts) is matched on Bash before the request's
 * own hooks: a command that hides what it runs from the rules is blocked, and so a refusal.
 */
export function settingsDocumentFor(limits: Request['limits'], denyUnseenHook?: string): ClaudeSettingsDocument {
  const wholeTools = limits.deny.filter(isWholeToolRule);
  const document: ClaudeSettingsDocument = {
    permissions: { allow: [...limits.allow], deny: limits.deny.filter((rule) => !isWholeToolRule(rule)) },
    hooks: {},
  };
  const preToolUse = [
    ...wholeTools.map((tool) => ({ matcher: tool, hooks: [{ type: 'command' as const, command: blockingHookCommand(tool) }] })),
    ...(denyUnseenHook !== undefined && limits.deny.length > 0 ? [{ matcher: 'Bash', hooks: [{ type: 'command' as const, command: denyUnseenHook }] }] : []),
    ...limits.hooks.map((hook) => ({ matcher: hook.tool, hooks: [{ type: 'command' as const, command: hook.command }] })),
  ];
  if (preToolUse.length > 0) {
    document.hooks.PreToolUse = preToolUse;
    // claude reloads its settings files mid-session, and under the sandboxed (bypass) permissions the
    // agent may write three of them (the workspace's .claude/settings.json and settings.local.json,
    // the private CLAUDE_CONFIG_DIR's settings.json): one `disableAllHooks: true` there turned every
    // hook off, the denying ones included. This document, given by --settings, outranks them all.
    document.disableAllHooks = false;
  }
  return document;
}
