import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGit } from '@statecraft/records';

describe('a git asked for under a signal already stopped', () => {
  it('is never started: its answer is the stop, never one a git that outran its kill gave', async () => {
    // A git started and killed at once can still run first on a loaded host, and a status that
    // finished before its kill read as git's own answer after the end of an attempt was stopped.
    const bin = mkdtempSync(join(tmpdir(), 'statecraft-git-stopped-'));
    const log = join(bin, 'started');
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho started >> '${log}'\nexec '${realGit}' "$@"\n`, { mode: 0o755 });
    const previous = process.env['PATH'];
    process.env['PATH'] = `${bin}:${previous ?? '/usr/bin:/bin'}`;
    try {
      const stopping = new AbortController();
      stopping.abort(new Error('the end of the attempt took more than 10 s'));
      for (let call = 0; call < 200; call += 1) {
        const answer = await runGit(bin, ['status', '--porcelain'], stopping.signal);
        expect(answer).toMatchObject({ ok: false, exitCode: undefined, stderr: 'git was stopped: the end of the attempt took more than 10 s' });
      }
      expect(existsSync(log), 'a git was started under a signal already stopped').toBe(false);
    } finally {
      process.env['PATH'] = previous;
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
