import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFiles } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { STATECRAFT_BIN, statecraftEnvironment } from '../../fixtures/statecraft-cli.js';

// R12: the sandbox shared the operator's keyrings. The session keyring is inherited, and the
// user keyring is reached through it (pam_keyinit links it there), so an agent or a check read
// the operator's keys, unlinked them, and planted keys that outlived the attempt. The keyring
// system calls are now denied inside the boundary, and /proc/keys is unreadable there. Each run
// below is made in a session keyring of its own (`keyctl session`), holding a key, with the user
// keyring linked in and holding a key, as an operator's login session does.

const targets = useTestTargets({ sharedRepository: false });
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Names of one test's keys: the operator's two, and the one the sandbox tries to plant. */
function keyNames() {
  const id = randomUUID().slice(0, 8);
  return { session: `statecraft-test-session-${id}`, user: `statecraft-test-user-${id}`, planted: `statecraft-test-planted-${id}` };
}
type Keys = ReturnType<typeof keyNames>;

/** What runs inside the sandbox: each move on the operator's keys, one line each, `<move>: succeeded|denied <what it said>`. */
function movesOnKeys(keys: Keys): string {
  return [
    // One line per move: what it said, its lines joined.
    'move() { what=$1; shift; if out=$("$@" 2>&1); then said=succeeded; else said=denied; fi; echo "$what: $said" $out; }',
    `move read-session keyctl print %user:${keys.session}`,
    `move read-user keyctl print %user:${keys.user}`,
    `move describe-session keyctl describe %user:${keys.session}`,
    `move overwrite-session keyctl update %user:${keys.session} overwritten`,
    `move unlink-session keyctl unlink %user:${keys.session}`,
    `move unlink-user keyctl unlink %user:${keys.user}`,
    `move plant-session keyctl add user ${keys.planted} planted @s`,
    `move plant-user keyctl add user ${keys.planted} planted %keyring:_uid.${process.getuid?.() ?? 0}`,
    'move list-proc-keys cat /proc/keys',
    '',
  ].join('\n');
}

/**
 * Runs `statecraft <args>` (each argument a shell word) in a session keyring of its own holding the
 * operator's session key, with the user keyring linked in holding the user key; answers the CLI's
 * stdout and what the operator's keyrings hold afterwards.
 */
async function inOperatorSession(keys: Keys, home: string, commands: string[]): Promise<{ outputs: string[]; after: string }> {
  cleanups.push(() => execa('keyctl', ['purge', '-s', 'user', keys.user], { reject: false }));
  cleanups.push(() => execa('keyctl', ['purge', '-s', 'user', keys.planted], { reject: false }));
  const script = [
    'set -e',
    `keyctl add user ${keys.session} operator-session-secret @s > /dev/null`,
    'keyctl link @u @s',
    `keyctl add user ${keys.user} operator-user-secret @u > /dev/null`,
    'set +e',
    ...commands.map((command, index) => `${command} > "$OUT.${index}" 2> "$OUT.${index}.err"`),
    `echo "session: $(keyctl print %user:${keys.session} 2>&1)"`,
    `echo "user: $(keyctl print %user:${keys.user} 2>&1)"`,
    `echo "planted in session: $(keyctl search @s user ${keys.planted} 2>&1)"`,
    `echo "planted in user: $(keyctl search @u user ${keys.planted} 2>&1)"`,
  ].join('\n');
  const out = join(home, `keyrings-${randomUUID()}`);
  const ran = await execa('keyctl', ['session', `statecraft-test-${randomUUID().slice(0, 8)}`, 'sh', '-c', script], {
    env: { ...statecraftEnvironment(home), OUT: out, STATECRAFT: STATECRAFT_BIN },
    extendEnv: false,
    reject: false,
    timeout: 180_000,
  });
  if (ran.exitCode !== 0) throw new Error(`the session script failed (it needs keyctl, Debian's keyutils): ${ran.message}`);
  return { outputs: commands.map((_, index) => readFileSync(`${out}.${index}`, 'utf8')), after: ran.stdout };
}

/** Every move denied, and the operator's keys as they were: readable with their payloads, none planted. */
function expectKeyringsOutOfReach(moves: string, after: string): void {
  const lines = moves.trim().split('\n');
  expect(lines.map((line) => line.split(':')[0])).toEqual([
    'read-session',
    'read-user',
    'describe-session',
    'overwrite-session',
    'unlink-session',
    'unlink-user',
    'plant-session',
    'plant-user',
    'list-proc-keys',
  ]);
  for (const line of lines) expect(line).toMatch(/^[a-z-]+: denied /);
  expect(moves).not.toContain('operator-session-secret');
  expect(moves).not.toContain('operator-user-secret');
  expect(after).toContain('session: operator-session-secret');
  expect(after).toContain('user: operator-user-secret');
  expect(after).toMatch(/planted in session: .*(not available|Required key not available)/);
  expect(after).toMatch(/planted in user: .*(not available|Required key not available)/);
}

describe("the operator's keyrings, out of a launch's reach (R12)", () => {
  it('an agent can neither read, overwrite, unlink nor plant a key in the session or the user keyring; the probe says so', async () => {
    const keys = keyNames();
    const adapter = await createScriptedAdapter(
      'keyrings',
      [
        "import { execFileSync } from 'node:child_process';",
        "import { writeFileSync } from 'node:fs';",
        `writeFileSync('keyrings.txt', execFileSync('/bin/sh', ['-c', ${JSON.stringify(movesOnKeys(keys))}]));`,
        'init();',
        "emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });",
      ].join('\n'),
    );
    cleanups.push(adapter.remove);
    const repository = await targets.fresh();
    const { outputs, after } = await inOperatorSession(keys, targets.home.path, [
      `"$STATECRAFT" run ${repository.path} --adapter ${adapter.executable} --prompt keyrings --json`,
    ]);
    const account = JSON.parse(outputs[0] ?? '') as {
      outcome: string;
      workspace: string;
      posture: { boundary: { probe: { check: string; held: boolean; detail: string }[] } };
    };
    expect(account.outcome).toBe('completed');
    expectKeyringsOutOfReach(readFileSync(join(account.workspace, 'keyrings.txt'), 'utf8'), after);
    const keyrings = account.posture.boundary.probe.find((check) => check.check === 'keyrings');
    expect(keyrings).toMatchObject({ held: true });
    expect(keyrings?.detail).toContain('add_key, request_key, keyctl');
  });

  it('a check can neither read, overwrite, unlink nor plant a key in the session or the user keyring', async () => {
    const keys = keyNames();
    const repository = await targets.fresh();
    await writeFiles(repository, {
      '.statecraft/environment.json': `${JSON.stringify({ project: { commands: ['sh'] }, acceptance: { checks: ['sh keyrings.sh'] } })}\n`,
      'keyrings.sh': movesOnKeys(keys),
    });
    await repository.git('add', '-A');
    await repository.git('commit', '--quiet', '-m', 'a check that reaches for the keyrings');
    const { outputs, after } = await inOperatorSession(keys, targets.home.path, [
      `"$STATECRAFT" run ${repository.path} --adapter fixture --prompt "$(printf 'scenario: write\\npath: answer.txt\\ntext: 42\\n')" --accept --json`,
    ]);
    const account = JSON.parse(outputs[0] ?? '') as { acceptance: { verdict: string; checks: { stdout: { path: string } }[] } };
    expect(account.acceptance.verdict).toBe('accepted');
    const [check] = account.acceptance.checks;
    expectKeyringsOutOfReach(readFileSync(check?.stdout.path ?? '', 'utf8'), after);
  });
});
