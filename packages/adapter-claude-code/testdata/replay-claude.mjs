#!/usr/bin/env node
// A stand-in for `claude` that replays a recorded native stream (the shared steps and the
// STATECRAFT_REPLAY_* variables: packages/adapter/testdata/replay-native-stream.mjs). It reads its
// stdin to the end as claude does, then prints the recorded stream.
//   STATECRAFT_REPLAY_INSPECT=<file>  first writes what it was given (argv, cwd, the prompt, the
//                                     --settings file's path, mode and content) to <file>, as JSON
import { readFileSync, statSync } from 'node:fs';
import { replayNativeStream } from '../../adapter/testdata/replay-native-stream.mjs';

await replayNativeStream({
  versionLine: () => '2.1.328+replay (a recorded Claude Code stream, replayed)',
  inspect(args, prompt) {
    const at = args.indexOf('--settings');
    const path = at >= 0 ? args[at + 1] : undefined;
    const settings = path === undefined ? null : { path, mode: statSync(path).mode & 0o777, content: JSON.parse(readFileSync(path, 'utf8')) };
    return { prompt, settings };
  },
  endlessLineStart: '{"type":"assistant","message":"',
});
