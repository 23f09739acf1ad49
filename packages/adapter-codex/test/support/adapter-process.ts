import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll } from 'vitest';
import { EventSchema } from '@statecraft/adapter';
import type { ProtocolEvent, Request } from '@statecraft/adapter';
import { codexAdapterPath, replayCodexPath } from '@statecraft/adapter-codex';

/** Every scratch directory of the importing test file, removed when the file is done. */
export const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

export interface Replayed {
  events: ProtocolEvent[];
  otherLines: string[];
  /** The scratch root: workspace/, home/, tmp/ and request.json. */
  root: string;
}

/**
 * Runs the bundled adapter as a real process with the replaying stand-in as its `codex`, which
 * prints `stream`; `environment` is added to the constructed base (PATH, HOME, TMPDIR).
 */
export async function replay(stream: string, options: { limits?: Partial<Request['limits']>; environment?: Record<string, string> } = {}): Promise<Replayed> {
  const root = await mkdtemp(join(tmpdir(), 'statecraft-codex-replay-'));
  roots.push(root);
  const workspace = join(root, 'workspace');
  await Promise.all([mkdir(workspace), mkdir(join(root, 'home')), mkdir(join(root, 'tmp'))]);
  const prompt = 'Do the scripted work.';
  const request = {
    protocol: 1,
    attempt: { runId: 'replay', number: 1 },
    workspace,
    baseRevision: 'HEAD',
    capabilities: { required: [], preferred: [] },
    limits: { maxTurns: null, allow: [], deny: [], removeTools: [], hooks: [], ...options.limits },
    deadline: { milliseconds: 60_000, at: new Date(Date.now() + 60_000).toISOString() },
    prompt: { sha256: createHash('sha256').update(prompt).digest('hex'), bytes: Buffer.byteLength(prompt) },
    provider: { executable: replayCodexPath() },
  };
  await writeFile(join(root, 'request.json'), JSON.stringify(request));
  const ran = await execa(process.execPath, [codexAdapterPath(), 'run', '--request', join(root, 'request.json')], {
    input: prompt,
    extendEnv: false,
    env: {
      PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: join(root, 'home'),
      TMPDIR: join(root, 'tmp'),
      STATECRAFT_REPLAY_NATIVE_STREAM: stream,
      ...options.environment,
    },
    reject: false,
    timeout: 60_000,
  });
  const events: ProtocolEvent[] = [];
  const otherLines: string[] = [];
  for (const line of ran.stdout.split('\n').filter((entry) => entry !== '')) {
    try {
      events.push(EventSchema.parse(JSON.parse(line)));
    } catch {
      otherLines.push(line);
    }
  }
  return { events, otherLines, root };
}
