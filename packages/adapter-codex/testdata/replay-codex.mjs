#!/usr/bin/env node
// A stand-in for `codex` that replays a recorded native stream (the shared steps and the
// STATECRAFT_REPLAY_* variables: packages/adapter/testdata/replay-native-stream.mjs). It reads its
// stdin to the end as codex exec does, then prints the recorded stream.
//   STATECRAFT_REPLAY_INSPECT=<file>  first writes what it was given (argv, cwd, CODEX_HOME, TMPDIR,
//                                     the prompt, its config.toml's mode and text) to <file>, as JSON
//   STATECRAFT_REPLAY_VERSION=<v>     answers `codex-cli <v>` to --version (default 0.171.0+replay,
//                                     so a replay is never taken for the pinned binary)
import { readFileSync, statSync } from 'node:fs';
import { replayNativeStream } from '../../adapter/testdata/replay-native-stream.mjs';

await replayNativeStream({
  versionLine: () => `codex-cli ${process.env.STATECRAFT_REPLAY_VERSION ?? '0.171.0+replay'}`,
  inspect(args, prompt) {
    const home = process.env.CODEX_HOME;
    const path = home === undefined ? undefined : `${home}/config.toml`;
    const config = path === undefined ? null : { path, mode: statSync(path).mode & 0o777, text: readFileSync(path, 'utf8') };
    return { codexHome: home ?? null, temporaryDirectory: process.env.TMPDIR ?? null, prompt, config };
  },
  endlessLineStart: '{"type":"item.completed","item":{"id":"item_9","type":"agent_message","text":"',
});
