import { describe, expect, it } from 'vitest';
import { allowedBy, matchingDenyRule, parseToolRules, plainSimpleCommand, unjudgeableUnderDeny } from '@statecraft/adapter-codex';

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

  it('matches a deny rule on the program however it is spelled: a path, quotes or a backslash, leading assignments, a group or compound opener', () => {
    const deny = rules(['Bash(touch:*)']);
    for (const command of [
      '/usr/bin/touch x',
      "'touch' x",
      '\\touch x',
      'A=1 B=2 touch x',
      '(touch x)',
      '{ touch x; }',
      'if true; then touch x; fi',
      '! touch x',
    ]) {
      expect(matchingDenyRule(deny, 'Bash', command)?.text, command).toBe('Bash(touch:*)');
    }
    expect(plainSimpleCommand('A=1 /usr/bin/touch x')).toBe('touch x');
  });

  it("names why a command cannot be judged while deny rules exist: a wrapper or a shell from R9.2's list, a substitution, an expanded program word", () => {
    expect(unjudgeableUnderDeny('sh -c "touch x"')).toMatch(/runs sh, which runs another program the deny rules cannot see through/);
    expect(unjudgeableUnderDeny('env touch x')).toMatch(/runs env/);
    expect(unjudgeableUnderDeny('echo hi && /bin/bash -c "touch x"')).toMatch(/runs bash/);
    expect(unjudgeableUnderDeny('nice -n 5 touch x')).toMatch(/runs nice/);
    expect(unjudgeableUnderDeny('bash')).toMatch(/runs bash/);
    expect(unjudgeableUnderDeny('echo $(touch x)')).toMatch(/command substitution/);
    expect(unjudgeableUnderDeny('cat <(touch x)')).toMatch(/process substitution/);
    expect(unjudgeableUnderDeny('echo `touch x`')).toMatch(/backquote/);
    expect(unjudgeableUnderDeny('T=touch; $T x')).toMatch(/its program \$T is expanded by the shell/);
    expect(unjudgeableUnderDeny('/usr/bin/tou?h x')).toMatch(/expanded by the shell/);
    expect(unjudgeableUnderDeny('')).toMatch(/no command/);
    // Judgeable: each simple command names its program plainly.
    for (const command of ['git status', 'ls -la; echo done', '[ -f x ] && echo yes', 'npm test > out.txt'])
      expect(unjudgeableUnderDeny(command), command).toBeUndefined();
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
