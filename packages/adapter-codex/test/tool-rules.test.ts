import { describe, expect, it } from 'vitest';
import { allowedBy, matchingDenyRule, parseToolRules } from '@statecraft/adapter-codex';

// The request's neutral `Tool(pattern)` rules as the adapter's PreToolUse hook applies them to a
// Codex Bash call (docs/decisions.md, issue 13).

function rules(texts: string[]) {
  const parsed = parseToolRules(texts, 'deny');
  if (parsed.kind !== 'rules') throw new Error(parsed.message);
  return parsed.rules;
}

describe('tool rules for the Codex hook', () => {
  it('matches a prefix rule on the command or any simple command in it, so a harmless first command does not hide a denied one', () => {
    const deny = rules(['Bash(touch:*)']);
    expect(matchingDenyRule(deny, 'Bash', 'touch statecraft-marker.txt')?.text).toBe('Bash(touch:*)');
    expect(matchingDenyRule(deny, 'Bash', 'echo hi; touch x')?.text).toBe('Bash(touch:*)');
    expect(matchingDenyRule(deny, 'Bash', 'echo hi && touch x')?.text).toBe('Bash(touch:*)');
    expect(matchingDenyRule(deny, 'Bash', 'touchy x')).toBeUndefined();
    expect(matchingDenyRule(deny, 'apply_patch', 'touch x')).toBeUndefined();
  });

  it('lets a call through an allowlist only when every simple command is covered, and never one that hides a command substitution', () => {
    const allow = rules(['Bash(echo:*)', 'Bash(ls)']);
    expect(allowedBy(allow, 'Bash', 'echo hi')).toBe(true);
    expect(allowedBy(allow, 'Bash', 'echo hi; ls')).toBe(true);
    expect(allowedBy(allow, 'Bash', 'echo hi; touch x')).toBe(false);
    expect(allowedBy(allow, 'Bash', 'echo $(touch x)')).toBe(false);
    expect(allowedBy(rules(['Bash']), 'Bash', 'anything $(at all)')).toBe(true);
  });

  it('refuses a rule for a tool the hook is not measured to see, naming the rule and what to do', () => {
    const parsed = parseToolRules(['Write'], 'allow');
    expect(parsed.kind).toBe('refused');
    if (parsed.kind === 'refused')
      expect(parsed.message).toMatch(/limits\.allow: "Write" names the tool Write; the Codex adapter enforces rules for Bash only/);
  });
});
