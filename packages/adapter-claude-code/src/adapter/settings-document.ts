import type { Request } from '@statecraft/adapter';

/** The part of Claude Code's settings document the adapter writes (R10.1). */
export interface ClaudeSettingsDocument {
  permissions: { allow: string[]; deny: string[] };
  hooks: {
    PreToolUse?: Array<{ matcher: string; hooks: Array<{ type: 'command'; command: string }> }>;
  };
}

/**
 * Translates the request's neutral limits: allow rules → `permissions.allow`, deny rules →
 * `permissions.deny` (a denied call leaves a `permission_denials` entry, R10.3), and each
 * before-tool hook → a `PreToolUse` hook matched on its tool (docs/facts.md item 8).
 */
export function settingsDocumentFor(limits: Request['limits']): ClaudeSettingsDocument {
  const document: ClaudeSettingsDocument = { permissions: { allow: [...limits.allow], deny: [...limits.deny] }, hooks: {} };
  if (limits.hooks.length > 0) {
    document.hooks.PreToolUse = limits.hooks.map((hook) => ({ matcher: hook.tool, hooks: [{ type: 'command', command: hook.command }] }));
  }
  return document;
}
