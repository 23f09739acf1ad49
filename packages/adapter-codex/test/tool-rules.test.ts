import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowedBy, matchingDenyRule, parseToolRules, permittedUnderStrict, plainSimpleCommand, unjudgeableUnderDeny } from '@statecraft/adapter-codex';

// The request's neutral `Tool(pattern)` rules as the adapter's PreToolUse hook applies them to a
// Codex Bash call (decisions 0060, 0151).

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
    // Judgeable: each simple command names its program plainly. (`[` and `test` are not: `-v` reads
    // a variable named by an argument, whose subscript can run a command.)
    for (const command of [
      'git status',
      'ls -la; echo done',
      'npm test > out.txt',
      'npm test 2>&1 | tail -n 5',
      'cd packages/x && npm run build',
      'git commit -m "fix: read words (quoted)"',
      'export CI=1; npm test',
      'A=1 B=2 make check',
      "grep -rn 'needle' src",
      'echo done # a note',
    ])
      expect(unjudgeableUnderDeny(command), command).toBeUndefined();
  });

  it('denies, under Bash(touch:*), every spelling found to run touch under bash -c: by the rule where the reading names touch, otherwise unseen (fail closed)', () => {
    const deny = rules(['Bash(touch:*)']);
    const denial = (command: string): string => {
      if (matchingDenyRule(deny, 'Bash', command) !== undefined) return 'deny-rule';
      return unjudgeableUnderDeny(command) ?? 'let through';
    };
    // Each form made the file x under `bash -c` (GNU bash 5.2.15, Debian 12) when this table was
    // written; `p` holds a subscript whose command substitution is built without `$(` in the text.
    const p = "p=$'a[\\x24(touch x)]'; ";
    const evasions: Array<[command: string, expected: 'deny-rule' | RegExp]> = [
      // The reviewer's findings: a redirection before the program, `&` inside a redirection, a shell
      // glued to a here-string, `case` and `coproc`, a line continuation.
      ['>/dev/null touch x', 'deny-rule'],
      ['2>&1 touch x', 'deny-rule'],
      ['bash<<<"touch x"', /runs bash/],
      ['case a in a) touch x;; esac', /shell keyword case/],
      ['coproc touch x', 'deny-rule'],
      ['tou\\\nch x', 'deny-rule'],
      // Redirections anywhere before or glued to the program.
      ['> /dev/null touch x', 'deny-rule'],
      ['2> /dev/null touch x', 'deny-rule'],
      ['&>/dev/null touch x', 'deny-rule'],
      ['2>&- touch x', 'deny-rule'],
      ['>&2 touch x', 'deny-rule'],
      ['1>&2 touch x', 'deny-rule'],
      ['2>/dev/null>/dev/null touch x', 'deny-rule'],
      ['<<<x touch x', 'deny-rule'],
      ['touch>x', 'deny-rule'],
      ['{fd}>/dev/null touch x', /expanded by the shell/],
      // Quoting of the program word.
      ["$'touch' x", /expanded by the shell/],
      ["$'\\x74ouch' x", /expanded by the shell/],
      ['\\touch x', 'deny-rule'],
      ["t''ouch x", 'deny-rule'],
      ['t""ouch x', 'deny-rule'],
      ['"touch" x', 'deny-rule'],
      ['to"uc"h x', 'deny-rule'],
      ['tou\\ch x', 'deny-rule'],
      // Paths.
      ['/usr/bin/touch x', 'deny-rule'],
      ['cp /usr/bin/touch ./touch; ./touch x', 'deny-rule'],
      ['/usr/bin/../bin/touch x', 'deny-rule'],
      ['~root/../usr/bin/touch x', 'deny-rule'],
      ['/???/???/touch x', 'deny-rule'],
      // The shell itself, reached through the process's view of its own program.
      ['/proc/self/exe -c "touch x"', /reached through \/proc or \/dev/],
      ['../../../../../proc/self/exe -c "touch x"', /reached through \/proc or \/dev/],
      // A program word the shell expands.
      ['{touch,x}', /expanded by the shell/],
      ['T=touch; $T x', /its program \$T is expanded by the shell/],
      ['${T:-touch} x', /evaluates a variable's value/],
      ['touch${IFS}x', /expanded by the shell/],
      ['set -- touch x; "$@"', /expanded by the shell/],
      ['IFS=_; c=touch_x; $c', /expanded by the shell/],
      // Substitutions.
      ['`echo touch` x', /backquote/],
      ['$(echo touch) x', /command substitution/],
      ['cat <(touch x)', /process substitution/],
      ['"$(printf touch)" x', /command substitution/],
      // Assignments before the program, quoted values with blanks or separators in them.
      ['A=1 touch x', 'deny-rule'],
      ['A="1 2" touch x', 'deny-rule'],
      ["A='1 2' touch x", 'deny-rule'],
      ['A=a\\ b touch x', 'deny-rule'],
      ['A=(1 2) touch x', /unquoted \( or \)/],
      ['PATH=/usr/bin touch x', 'deny-rule'],
      ['A="x;y" touch x', 'deny-rule'],
      ['>"a;b" touch x', 'deny-rule'],
      // Programs that run another: R9.2's wrappers, and others found here.
      ['eval touch x', /runs eval/],
      ['exec touch x', /runs exec/],
      ['exec -a t touch x', /runs exec/],
      ['command touch x', /runs command/],
      ['builtin command touch x', /runs builtin/],
      ['time touch x', 'deny-rule'],
      ['time -p touch x', /runs time/],
      ['nohup touch x', /runs nohup/],
      ['echo x | xargs touch', /runs xargs/],
      ['env -i touch x', /runs env/],
      ['setsid touch x', /runs setsid/],
      ['stdbuf -o0 touch x', /runs stdbuf/],
      ['flock . touch x', /runs flock/],
      ['unshare touch x', /runs unshare/],
      ['nsenter touch x', /runs nsenter/],
      ['ionice touch x', /runs ionice/],
      ['taskset 1 touch x', /runs taskset/],
      ['strace -o /dev/null touch x', /runs strace/],
      ['gdb -batch -ex run --args touch x', /runs gdb/],
      ['su -c "touch x"', /runs su/],
      ['script -qc "touch x" /dev/null', /runs script/],
      ['rbash -c "touch x"', /runs rbash/],
      ['. /dev/stdin <<< "touch x"', /runs \./],
      ['source /dev/stdin <<< "touch x"', /runs source/],
      // Shell keywords and compound commands.
      ['case a in a) true;& b) touch x;; esac', /shell keyword case/],
      ['case a in a) true;;& a) touch x;; esac', /shell keyword case/],
      ['function f { touch x; }; f', /shell keyword function/],
      ['for i in 1; do touch x; done', 'deny-rule'],
      ['select i in 1; do touch x; break; done <<< 1', 'deny-rule'],
      ['while true; do touch x; break; done', 'deny-rule'],
      ['until false; do touch x; break; done', 'deny-rule'],
      ['if true; then touch x; fi', 'deny-rule'],
      ['{ touch x; }', 'deny-rule'],
      ['(touch x)', 'deny-rule'],
      ['! touch x', 'deny-rule'],
      ['[[ 1 ]] && touch x', 'deny-rule'],
      // Function definitions: the body runs when the name is called.
      ['f () { touch x; }; f', /unquoted \( or \)/],
      ['f(){ touch x;};f', /unquoted \( or \)/],
      ['echo () ( touch x ); echo', /unquoted \( or \)/],
      ['f() if true; then touch x; fi; f', 'deny-rule'],
      // Builtins that run code from their arguments or give a program another name.
      ['shopt -s expand_aliases\nalias t=touch\nt x', /builtin alias/],
      ['hash -p /usr/bin/touch t; t x', /builtin hash/],
      ["trap 'touch x' EXIT", /builtin trap/],
      ['mapfile -C "touch x" -c 1 <<< a', /builtin mapfile/],
      ['history -s touch x; fc -e - 2>/dev/null; true', /builtin fc/],
      ["compgen -C 'touch x' a", /builtin compgen/],
      ['jobs -x touch x', /builtin jobs/],
      // A variable's value evaluated as arithmetic, an indirection or a prompt: its subscript runs a command.
      [`${p}echo $[p]`, /evaluates a variable's value/],
      [`${p}((p))`, /unquoted \( or \)/],
      [`${p}let p`, /builtin let/],
      [`${p}[[ p -eq 1 ]]`, /shell keyword \[\[/],
      [`${p}declare -i n=p`, /builtin declare/],
      [`${p}typeset -i n=p`, /builtin typeset/],
      [`${p}echo \${a[p]}`, /evaluates a variable's value/],
      [`${p}s=abc; echo \${s:p}`, /evaluates a variable's value/],
      [`${p}echo \${!p}`, /evaluates a variable's value/],
      [`${p}echo \${p@P}`, /evaluates a variable's value/],
      [`${p}PS4=$p; set -x; :`, /assigns PS4/],
      [`${p}read "$p" <<< 1`, /builtin read/],
      [`${p}printf -v "$p" x`, /builtin printf/],
      [`${p}test -v "$p"`, /builtin test/],
      [`${p}[ -v "$p" ]`, /builtin \[/],
      [`${p}b[0]=1; unset 'b[p]'`, /expanded by the shell|builtin unset/],
      [`${p}sleep 0 & wait -n -p "$p"`, /builtin wait/],
      ["echo ${a[$'a[\\x24(touch x)]']}", /evaluates a variable's value/],
      // Separators, and a comment whose line continuation bash does not join.
      ['echo hi # \\\ntouch x', 'deny-rule'],
      ['echo hi&&touch x', 'deny-rule'],
      ['echo hi|touch x', 'deny-rule'],
      ['echo hi |& touch x', 'deny-rule'],
      [':;touch x', 'deny-rule'],
      ['false || touch x', 'deny-rule'],
      ['\ttouch x', 'deny-rule'],
      ['echo hi & touch x; wait', 'deny-rule'],
    ];
    // Every row is read; the rows whose denial is not the expected one are named together.
    const misread = evasions.flatMap(([command, expected]) => {
      const got = denial(command);
      return (expected === 'deny-rule' ? got === expected : expected.test(got)) ? [] : [{ command, expected: String(expected), got }];
    });
    expect(misread).toEqual([]);
  });

  it('denies, under Bash(git push:*), a word in any position that the shell would expand, as the hidden forms of the program word are; the quoted forms it reads are matched by the rule', () => {
    const deny = rules(['Bash(git push:*)']);
    const denial = (command: string): string => {
      if (matchingDenyRule(deny, 'Bash', command) !== undefined) return 'deny-rule';
      return unjudgeableUnderDeny(command) ?? 'let through';
    };
    const expanded = /its word .* is expanded by the shell/;
    const forms: Array<[command: string, expected: 'deny-rule' | 'let through' | RegExp]> = [
      // Plain words are read exactly: the rule meets them, and a command it does not name runs.
      ['git push origin main', 'deny-rule'],
      ['git push', 'deny-rule'],
      ['git status', 'let through'],
      ['ls -la', 'let through'],
      ['echo hello', 'let through'],
      ['git pushy', 'let through'],
      ['git commit -m "push: a, b {c} d?"', 'let through'],
      ["echo 'a*b' \\* \\? \\[x] \"~\" '{a,b}'", 'let through'],
      ['find . -name x -exec echo {} \\;', 'let through'],
      // Quote removal only: the reading takes the quotes off and the rule sees push.
      ["git 'push' origin", 'deny-rule'],
      ['git "push" origin', 'deny-rule'],
      ['git pu\\sh origin', 'deny-rule'],
      ["git pu''sh origin", 'deny-rule'],
      ['git p"us"h origin', 'deny-rule'],
      ['A=1 git push', 'deny-rule'],
      ['>/dev/null git push', 'deny-rule'],
      // ANSI-C and locale quoting.
      ["git $'push'", expanded],
      ["git $'\\x70ush' origin", expanded],
      ['git $"push"', expanded],
      ["git p$'u'sh", expanded],
      // Brace expansion.
      ['git {push,origin} main', expanded],
      ['git pu{s,}h', expanded],
      ['git {p..p}ush', expanded],
      ['git {push,"x"}', expanded],
      // Parameters, positional and special ones, quoted or not.
      ['S=push; git $S', expanded],
      ['S=push; git "${S}"', expanded],
      ['S=push; git "$S" origin', expanded],
      ['S=push; git ${S}', expanded],
      ['set -- push; git $1', expanded],
      ['set -- push; git "$@"', expanded],
      ['git $S$T', expanded],
      ['git p${U}ush', expanded],
      ['echo "$HOME" ${HOME} $1', expanded],
      // Arithmetic.
      ['git $((1)) push', /command substitution/],
      ['git push$((0))', /command substitution/],
      // Pathname expansion (globs).
      ['git pus?', expanded],
      ['git pu*', expanded],
      ['git pus[h]', expanded],
      ['git p?sh origin main', expanded],
      ['ls *.ts', expanded],
      // Tilde expansion.
      ['git ~push', expanded],
      ['git push-to=~/x', expanded],
      ['A=~/x git status', expanded],
      // Command and process substitution, anywhere.
      ['git $(echo push)', /command substitution/],
      ['git `echo push`', /backquote/],
      ['git status <(echo x)', /process substitution/],
      ['git "$(echo push)"', /command substitution/],
      // A word in a later simple command, or after a redirection.
      ['git status; git $S', expanded],
      ['git status && git pus?', expanded],
      ['echo x > $F', expanded],
    ];
    const misread = forms.flatMap(([command, expected]) => {
      const got = denial(command);
      return (typeof expected === 'string' ? got === expected : expected.test(got)) ? [] : [{ command, expected: String(expected), got }];
    });
    expect(misread).toEqual([]);
  });

  it('reads a ; | & or line break inside quotes as part of its word, as bash does, and still splits where a comment or a here-document could move the quotes (each case run under bash -c here)', () => {
    const deny = rules(['Bash(touch:*)']);
    const verdict = (command: string): string => {
      if (matchingDenyRule(deny, 'Bash', command) !== undefined) return 'deny-rule';
      return unjudgeableUnderDeny(command) === undefined ? 'let through' : 'unjudgeable';
    };
    const cases: Array<[command: string, runsTouch: boolean, expected: 'deny-rule' | 'let through']> = [
      // Separators quoted: one simple command, nothing hidden, nothing over-judged.
      ["git commit -m 'fix; touch later'", false, 'let through'],
      ['git commit -m "fix | touch && more"', false, 'let through'],
      ["echo 'a & touch x'", false, 'let through'],
      ['echo "a\\" ; touch x"', false, 'let through'],
      ["echo \"'\" 'a;b'", false, 'let through'],
      ['echo a\\;touch x', false, 'let through'],
      // A quote that closes where bash closes it, then a real separator.
      ["echo 'a\\' ; touch x", true, 'deny-rule'],
      ['echo "a\\\\"; touch x', true, 'deny-rule'],
      ["echo 'x' 'y;z' \"w\";touch x", true, 'deny-rule'],
      ['echo "\'"; touch x', true, 'deny-rule'],
      ["echo '\"'; touch x", true, 'deny-rule'],
      ["echo 'a\\\n'; touch x", true, 'deny-rule'],
      ['echo a\\\n; touch x', true, 'deny-rule'],
      ["echo 'a;b'; t'ouc'h x", true, 'deny-rule'],
      // A comment or a here-document body holds a quote bash does not read as one.
      ["echo a # it's\ntouch x", true, 'deny-rule'],
      ["cat <<EOF\n'\nEOF\ntouch x", true, 'deny-rule'],
      // An unclosed quote: bash runs nothing, and the line is judged piece by piece.
      ["echo 'a; touch x", false, 'deny-rule'],
    ];
    const scratch = mkdtempSync(join(tmpdir(), 'statecraft-quoted-separators-'));
    try {
      const misread = cases.flatMap(([command, runsTouch, expected], index) => {
        const directory = join(scratch, String(index));
        mkdirSync(directory);
        spawnSync('bash', ['-c', command], { cwd: directory, stdio: 'ignore', timeout: 10_000 });
        const ran = existsSync(join(directory, 'x'));
        const got = verdict(command);
        return ran === runsTouch && got === expected ? [] : [{ command, runsTouch, ran, expected, got }];
      });
      expect(misread).toEqual([]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('reads plain words exactly: the spelled-plain command is the words as written', () => {
    expect(plainSimpleCommand('git push origin main')).toBe('git push origin main');
    expect(plainSimpleCommand('ls -la')).toBe('ls -la');
    expect(plainSimpleCommand('echo hello')).toBe('echo hello');
    expect(plainSimpleCommand("git 'push' \\origin")).toBe('git push origin');
  });

  it('fails closed on every shell keyword bash 5.2 lists (compgen -k), whatever follows it', () => {
    for (const keyword of [
      'if',
      'then',
      'else',
      'elif',
      'fi',
      'case',
      'esac',
      'for',
      'select',
      'while',
      'until',
      'do',
      'done',
      'in',
      'function',
      '{',
      '}',
      '!',
      '[[',
      ']]',
      'coproc',
    ])
      expect(unjudgeableUnderDeny(`${keyword} x`), keyword).toMatch(new RegExp(`shell keyword ${keyword.replace(/[[\]{}!]/g, '\\$&')}`));
    expect(unjudgeableUnderDeny('time x')).toMatch(/runs time/);
  });

  it('fails closed on an assignment to a variable that bash or the dynamic loader runs as code, before the program or through export', () => {
    for (const command of ['PS4=x', 'BASH_ENV=./e make', 'export BASH_ENV=./e; make', 'LD_PRELOAD=./x.so ls', 'PROMPT_COMMAND=x'])
      expect(unjudgeableUnderDeny(command), command).toMatch(/assigns (PS4|BASH_ENV|LD_PRELOAD|PROMPT_COMMAND), which bash or the dynamic loader runs as code/);
  });

  it('does not see a program that another starts from its arguments, nor a copy or link of a program under another name (the package does not claim it)', () => {
    const deny = rules(['Bash(touch:*)']);
    for (const command of [
      'find . -maxdepth 0 -exec touch x \\;',
      "python3 -c \"open('x', 'w')\"",
      'awk \'BEGIN { system("touch x") }\'',
      'cp /usr/bin/touch t; ./t x',
      'ln -s /usr/bin/touch t; ./t x',
    ]) {
      expect(matchingDenyRule(deny, 'Bash', command), command).toBeUndefined();
      expect(unjudgeableUnderDeny(command), command).toBeUndefined();
    }
  });

  it('lets a call through an allowlist only when every simple command is covered, and never one that hides a command from every rule', () => {
    const allow = rules(['Bash(echo:*)', 'Bash(ls)']);
    expect(allowedBy(allow, 'Bash', 'echo hi')).toBe(true);
    expect(allowedBy(allow, 'Bash', 'echo hi; ls')).toBe(true);
    expect(allowedBy(allow, 'Bash', 'echo hi; touch x')).toBe(false);
    expect(allowedBy(allow, 'Bash', 'echo $(touch x)')).toBe(false);
    // Each ran touch under bash -c here though every simple command starts with echo: a subscript
    // evaluated twice, and a function named echo defined and called.
    expect(allowedBy(allow, 'Bash', "echo ${a[$'a[\\x24(touch x)]']}")).toBe(false);
    expect(allowedBy(allow, 'Bash', 'echo () ( touch x ); echo')).toBe(false);
    expect(allowedBy(rules(['Bash']), 'Bash', 'anything $(at all)')).toBe(true);
  });

  it("under strict permits Codex's own edit tool and, beyond it, only what the allowlist covers: none covers no shell call, a read included, nor a tool no rule can name (decision 0341)", () => {
    expect(permittedUnderStrict([], 'apply_patch', '*** Begin Patch')).toBe(true);
    for (const command of ['touch pwned', 'ls', 'cat README.md', '']) expect(permittedUnderStrict([], 'Bash', command), command).toBe(false);
    expect(permittedUnderStrict([], 'web_search', 'anything')).toBe(false);
    const allow = rules(['Bash(ls:*)']);
    expect(permittedUnderStrict(allow, 'Bash', 'ls -a > listed.txt')).toBe(true);
    expect(permittedUnderStrict(allow, 'Bash', 'ls; touch x')).toBe(false);
    expect(permittedUnderStrict(rules(['Bash']), 'web_search', 'anything')).toBe(false);
  });

  it('refuses a rule for a tool the hook is not measured to see, naming the rule and what to do', () => {
    const parsed = parseToolRules(['Write'], 'allow');
    expect(parsed.kind).toBe('refused');
    if (parsed.kind === 'refused')
      expect(parsed.message).toMatch(/limits\.allow: "Write" names the tool Write; the Codex adapter enforces rules for Bash only/);
  });
});
