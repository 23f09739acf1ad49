import { describe, expect, it } from 'vitest';
import { classifyCommand, WRAPPER_PROGRAMS } from '@statecraft/adapter';

// R9.2: how one check command reads. Pure, so every case is a string.

describe('a simple command (R9.2)', () => {
  it('names its first word as the program', () => {
    expect(classifyCommand('cargo test --all')).toEqual({ kind: 'simple', text: 'cargo test --all', program: 'cargo' });
  });

  it('accepts letters, digits and _ . + - in the program name', () => {
    expect(classifyCommand('g++-13 -v')).toMatchObject({ kind: 'simple', program: 'g++-13' });
    expect(classifyCommand('python3.12 -m pytest')).toMatchObject({ kind: 'simple', program: 'python3.12' });
    expect(classifyCommand('my_tool')).toMatchObject({ kind: 'simple', program: 'my_tool' });
  });

  it('tolerates surrounding whitespace and tabs between words', () => {
    expect(classifyCommand('  make\tcheck  ')).toMatchObject({ kind: 'simple', program: 'make' });
  });

  it('keeps quoted arguments without metacharacters simple', () => {
    expect(classifyCommand(`npm test -- --grep "two words"`)).toMatchObject({ kind: 'simple', program: 'npm' });
    expect(classifyCommand(`git commit -m 'a message'`)).toMatchObject({ kind: 'simple', program: 'git' });
  });
});

describe('every metacharacter outside single quotes makes a command unparsed (R9.2)', () => {
  const metacharacters: [string, string][] = [
    ['|', 'make | tee log'],
    ['&', 'make &'],
    [';', 'make; make test'],
    ['<', 'sort < input'],
    ['>', 'make > log'],
    ['(', 'echo (x'],
    [')', 'echo x)'],
    ['$', 'echo $HOME'],
    ['`', 'echo `date`'],
    ['\\', 'echo a\\ b'],
  ];
  for (const [character, command] of metacharacters) {
    it(`reads ${JSON.stringify(command)} as unparsed because of ${JSON.stringify(character)}`, () => {
      const reading = classifyCommand(command);
      expect(reading.kind).toBe('unparsed');
      expect(reading).toHaveProperty('text', command);
    });
  }

  it('names the character in the reason', () => {
    expect(classifyCommand('make | tee log')).toMatchObject({ reason: expect.stringContaining('"|"') as unknown });
    expect(classifyCommand('echo `date`')).toMatchObject({ reason: expect.stringContaining('backquote') as unknown });
    expect(classifyCommand('echo a\\ b')).toMatchObject({ reason: expect.stringContaining('backslash') as unknown });
  });

  it('reads a line break as unparsed, even inside single quotes', () => {
    expect(classifyCommand('make \\\ncheck')).toMatchObject({ kind: 'unparsed' });
    expect(classifyCommand("echo 'a\nb'")).toMatchObject({ kind: 'unparsed', reason: 'it contains a line break' });
    expect(classifyCommand('make\r')).toMatchObject({ kind: 'unparsed', reason: 'it contains a line break' });
  });
});

describe('quotes (R9.2)', () => {
  it('makes metacharacters literal inside single quotes', () => {
    for (const character of ['|', '&', ';', '<', '>', '(', ')', '$', '`', '\\']) {
      const command = `grep '${character}' file`;
      expect(classifyCommand(command), command).toEqual({ kind: 'simple', text: command, program: 'grep' });
    }
  });

  it('does not make metacharacters literal inside double quotes', () => {
    for (const character of ['|', '&', ';', '<', '>', '(', ')', '$', '`', '\\']) {
      const command = `grep "${character}" file`;
      const reading = classifyCommand(command);
      expect(reading.kind, command).toBe('unparsed');
      expect(reading).toMatchObject({ reason: expect.stringContaining('double quotes') as unknown });
    }
  });

  it('reads a double quote inside single quotes, and a single quote inside double quotes, as literal', () => {
    expect(classifyCommand(`echo '"' x`)).toMatchObject({ kind: 'simple', program: 'echo' });
    expect(classifyCommand(`echo "'" x`)).toMatchObject({ kind: 'simple', program: 'echo' });
  });

  it('reads an unclosed quote as unparsed', () => {
    expect(classifyCommand(`echo 'open`)).toMatchObject({ kind: 'unparsed', reason: 'it has an unclosed single quote' });
    expect(classifyCommand(`echo "open`)).toMatchObject({ kind: 'unparsed', reason: 'it has an unclosed double quote' });
  });

  it('does not read a quoted first word as a bare program name', () => {
    expect(classifyCommand(`'cargo' test`)).toMatchObject({ kind: 'unparsed' });
    expect(classifyCommand(`"sudo" make`)).toMatchObject({ kind: 'unparsed' });
    expect(classifyCommand(`'' make`)).toMatchObject({ kind: 'unparsed' });
  });
});

describe('the first word (R9.2)', () => {
  it('reads an assignment prefix as unparsed', () => {
    expect(classifyCommand('FOO=1 make')).toMatchObject({ kind: 'unparsed', reason: expect.stringContaining('FOO=1') as unknown });
    expect(classifyCommand('_X= make')).toMatchObject({ kind: 'unparsed' });
  });

  it('reads every wrapper as unparsed, since the program it runs is not the first word', () => {
    // R9.2's list, then the shells and the programs beyond it that run another.
    expect(WRAPPER_PROGRAMS.slice(0, 19)).toEqual([
      'env',
      'exec',
      'command',
      'builtin',
      'xargs',
      'timeout',
      'nice',
      'nohup',
      'time',
      'sudo',
      'doas',
      'eval',
      'source',
      '.',
      'sh',
      'bash',
      'dash',
      'zsh',
      'ksh',
    ]);
    expect(WRAPPER_PROGRAMS.slice(19)).toEqual([
      ...['rbash', 'ash', 'mksh', 'fish', 'csh', 'tcsh', 'busybox'],
      ...['setsid', 'stdbuf', 'flock', 'unshare', 'nsenter', 'ionice', 'taskset', 'strace', 'gdb', 'su', 'script', 'chroot'],
      ...['chrt', 'prlimit', 'setpriv', 'runuser', 'ltrace', 'valgrind', 'pkexec', 'fakeroot', 'unbuffer', 'watch', 'parallel', 'systemd-run'],
    ]);
    for (const wrapper of WRAPPER_PROGRAMS) {
      const command = `${wrapper} cargo test`;
      expect(classifyCommand(command), command).toMatchObject({ kind: 'unparsed', reason: expect.stringContaining(wrapper) as unknown });
    }
  });

  it('reads `env`, `sudo` and `bash -c` as unparsed', () => {
    expect(classifyCommand('env cargo test').kind).toBe('unparsed');
    expect(classifyCommand('sudo make install').kind).toBe('unparsed');
    expect(classifyCommand(`bash -c 'cargo test'`).kind).toBe('unparsed');
  });

  it('does not take a program whose name merely starts like a wrapper for one', () => {
    expect(classifyCommand('envsubst x')).toMatchObject({ kind: 'simple', program: 'envsubst' });
    expect(classifyCommand('shellcheck x.sh')).toMatchObject({ kind: 'simple', program: 'shellcheck' });
  });

  it('reads a first word containing "/" as a path', () => {
    expect(classifyCommand('./x.sh')).toEqual({ kind: 'path', text: './x.sh', program: './x.sh' });
    expect(classifyCommand('/usr/bin/make check')).toMatchObject({ kind: 'path', program: '/usr/bin/make' });
    expect(classifyCommand('scripts/check --fast')).toMatchObject({ kind: 'path', program: 'scripts/check' });
  });

  it('reads a path with a metacharacter elsewhere as unparsed', () => {
    expect(classifyCommand('./x.sh | wc -l').kind).toBe('unparsed');
  });

  it('reads a first word outside the bare-name alphabet as unparsed', () => {
    for (const command of ['! make', 'car*go test', '~ x', '[[ -f x ]]', '{ make', 'ma#ke', '..', 'café']) {
      expect(classifyCommand(command).kind, command).toBe('unparsed');
    }
  });

  it('reads an empty command as unparsed', () => {
    expect(classifyCommand('   ')).toMatchObject({ kind: 'unparsed', reason: 'the command is empty' });
  });
});
