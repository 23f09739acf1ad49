import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventSchema } from '@statecraft/adapter';
import type { ProtocolEvent } from '@statecraft/adapter';
import { EventWriter, NativeStreamMapper, recordedStreamsDirectory, replayClaudePath, runSession } from '@statecraft/adapter-claude-code';
import { sandboxMaker } from '../../../test/fixtures/claude-code-adapter-process.js';

const makeSandbox = sandboxMaker();

// R10.1: a settings-file cleanup failure is kept as evidence and changes no outcome. Removal
// failures are hard to cause for real as root, so the session runs in-process with a settings
// file whose removal reports a failure; claude is still a real child (the replay stand-in).

describe('a settings cleanup failure', () => {
  it('is reported as a notice inside the trusted prefix, before the result, and the result is unchanged (R10.1)', async () => {
    const sandbox = await makeSandbox({ withClaude: false });
    const lines: string[] = [];
    const writer = new EventWriter((bytes) => lines.push(bytes.toString()));
    const mapper = new NativeStreamMapper({
      adapter: { name: 'claude-code', version: '0.1.0' },
      provider: { name: 'claude', version: 'replay', digest: 'not-recorded' },
      requested: [],
      applied: ['structured-refusals'],
      permissionModeAsked: null,
    });
    const directory = join(sandbox.root, 'settings-directory');
    const status = await runSession({
      executable: replayClaudePath(),
      argv: [],
      workspace: sandbox.workspace,
      prompt: Buffer.from('Do the scripted work.'),
      settings: {
        kind: 'written',
        path: join(directory, 'settings.json'),
        directory,
        remove: () => Promise.resolve({ kind: 'cleanup-failed', path: directory, message: 'EPERM: operation not permitted' }),
      },
      mapper,
      writer,
      environment: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, STATECRAFT_REPLAY_NATIVE_STREAM: join(recordedStreamsDirectory(), 'denied.jsonl') },
    });
    const events: ProtocolEvent[] = lines
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => EventSchema.parse(JSON.parse(line)));
    const types = events.map((event) => (event.type === 'progress' ? `progress:${event.kind}` : event.type));
    // The denial was refused as claude told of it, earlier; the cleanup's notice comes just before the result.
    expect(types.slice(-2)).toEqual(['progress:notice', 'result']);
    expect(types.filter((type) => type === 'refusal')).toHaveLength(1);
    expect(events.at(-2)).toMatchObject({ detail: { settingsCleanup: 'failed', path: directory, message: 'EPERM: operation not permitted' } });
    expect(events.at(-1)).toMatchObject({ type: 'result', terminal: 'completed' });
    expect(status).toBe(0);
  });
});
