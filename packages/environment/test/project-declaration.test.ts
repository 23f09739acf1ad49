import { describe, expect, it } from 'vitest';
import { parseProjectDeclaration, PROJECT_DECLARATION_PATH } from '@statecraft/environment';

// R9.1: the declared half of the allowance, `project.commands` in `.statecraft/environment.json`.

const FILE = PROJECT_DECLARATION_PATH;
const parse = (value: unknown) => parseProjectDeclaration(JSON.stringify(value), FILE);
const messageOf = (value: unknown): string => {
  const parsed = parse(value);
  if (parsed.kind !== 'refused') throw new Error('expected a refusal');
  return parsed.message;
};

describe('project.commands (R9.1)', () => {
  it('reads a list of bare program names', () => {
    expect(parse({ project: { commands: ['cargo', 'g++', 'python3.12', 'my_tool', 'x-y'] } })).toMatchObject({
      kind: 'parsed',
      file: FILE,
      commands: ['cargo', 'g++', 'python3.12', 'my_tool', 'x-y'],
    });
  });

  it('reads a file without project.commands as declaring nothing', () => {
    expect(parse({})).toMatchObject({ kind: 'parsed', commands: [] });
    expect(parse({ project: {} })).toMatchObject({ kind: 'parsed', commands: [] });
  });

  it('keeps unknown top-level members (a $schema, a newer section) instead of dropping them', () => {
    const parsed = parse({ $schema: 'x', version: 2, project: { commands: ['make'] }, later: { x: [1] } });
    expect(parsed).toMatchObject({ kind: 'parsed', declaration: { $schema: 'x', version: 2, project: { commands: ['make'] }, later: { x: [1] } } });
  });

  // Inside a section a misspelt key was once kept and ignored: "authorty" then dropped the
  // operator's authority paths without a word, and a candidate could change them and be accepted (R13.5).
  it('refuses an unknown member inside project or acceptance, naming the file and the key', () => {
    expect(messageOf({ project: { commands: ['make'], owner: 'ops' } })).toBe(`${FILE}: field "project": Unrecognized key: "owner"`);
    expect(messageOf({ acceptance: { checks: ['make test'], authorty: ['ci/'] } })).toBe(`${FILE}: field "acceptance": Unrecognized key: "authorty"`);
  });

  it('refuses an empty list, naming the file and the field', () => {
    expect(messageOf({ project: { commands: [] } })).toBe(
      `${FILE}: field "project.commands": is an empty list; name at least one program, or leave "commands" out`,
    );
  });

  it('refuses an entry holding "/", naming the file, the field and the entry', () => {
    expect(messageOf({ project: { commands: ['make', 'bin/cargo'] } })).toBe(
      `${FILE}: field "project.commands[1]": "bin/cargo" contains "/"; a declared command is a bare program name, never a path`,
    );
  });

  it('refuses an entry holding whitespace, naming it', () => {
    expect(messageOf({ project: { commands: ['cargo test'] } })).toContain('field "project.commands[0]": "cargo test" contains whitespace');
    expect(messageOf({ project: { commands: ['\tmake'] } })).toContain('"\\tmake" contains whitespace');
  });

  it('refuses a duplicate, naming both positions', () => {
    expect(messageOf({ project: { commands: ['cargo', 'make', 'cargo'] } })).toBe(
      `${FILE}: field "project.commands[2]": "cargo" is listed twice (also at [0])`,
    );
  });

  it('refuses a non-string entry, naming what it was', () => {
    expect(messageOf({ project: { commands: ['make', 7] } })).toContain('field "project.commands[1]": must be a string naming a program, not number 7');
    expect(messageOf({ project: { commands: [null] } })).toContain('not null null');
  });

  it('refuses other characters, "." and an empty string', () => {
    expect(messageOf({ project: { commands: ['car*go'] } })).toContain('"car*go" is not a bare program name');
    expect(messageOf({ project: { commands: ['..'] } })).toContain('".." is not a program name');
    expect(messageOf({ project: { commands: [''] } })).toContain('is an empty string');
  });

  it('names every malformed entry, not only the first', () => {
    const message = messageOf({ project: { commands: ['a/b', 'c d'] } });
    expect(message.split('\n')).toHaveLength(2);
  });

  it('refuses a commands member that is not a list', () => {
    expect(messageOf({ project: { commands: 'cargo' } })).toBe(`${FILE}: field "project.commands": must be a list of program names`);
  });

  it('refuses a project member or document that is not an object', () => {
    expect(messageOf({ project: ['cargo'] })).toContain(`${FILE}: field "project"`);
    expect(messageOf(['cargo'])).toContain(`${FILE}: field (the document)`);
  });

  it('refuses text that is not JSON, naming the file', () => {
    expect(parseProjectDeclaration('{"project": ', FILE)).toMatchObject({
      kind: 'refused',
      reason: 'not-json',
      message: expect.stringMatching(/^\.statecraft\/environment\.json: not JSON/) as unknown,
    });
  });
});

describe('acceptance.checks and acceptance.authority (R13.3, R13.5)', () => {
  it('reads the checks, trimmed, and the authority paths', () => {
    expect(parse({ acceptance: { checks: ['  npm test ', 'grep -q ok out.txt'], authority: ['test/', '.github', 'Makefile'] } })).toMatchObject({
      kind: 'parsed',
      acceptance: { checks: ['npm test', 'grep -q ok out.txt'], authority: ['test/', '.github', 'Makefile'] },
    });
  });

  it('reads a file without an acceptance section as declaring no checks and no further authority', () => {
    expect(parse({ project: { commands: ['make'] } })).toMatchObject({ kind: 'parsed', acceptance: { checks: 'none', authority: [] } });
  });

  it('refuses an empty list of checks, naming the file and the field', () => {
    expect(messageOf({ acceptance: { checks: [] } })).toBe(
      `${FILE}: field "acceptance.checks": is an empty list; name at least one check, or leave "checks" out`,
    );
  });

  it('refuses a check holding a line break, naming its position', () => {
    expect(messageOf({ acceptance: { checks: ['true', 'make\nmake install'] } })).toBe(
      `${FILE}: field "acceptance.checks[1]": holds a line break; one check is one command line`,
    );
  });

  it('refuses an authority path that leaves the repository or is absolute, naming it', () => {
    expect(messageOf({ acceptance: { authority: ['../elsewhere'] } })).toContain(
      'field "acceptance.authority[0]": "../elsewhere" has an empty, "." or ".." segment',
    );
    expect(messageOf({ acceptance: { authority: ['ok/', '/etc/passwd'] } })).toContain('field "acceptance.authority[1]": "/etc/passwd" is absolute');
  });
});
