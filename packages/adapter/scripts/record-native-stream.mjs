// What every adapter's scripts/record-streams.mjs shares: the pinned provider run once with the
// prompt on stdin, the temporary paths in its stream replaced, and the recording written where the
// currency test asks (STATECRAFT_RECORD_INTO) or beside the committed ones. What is recorded, and
// which per-run ids are redacted, is each provider's own.
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** The prompt every recording gives the provider (the model double's scenarios ignore it). */
export const RECORDING_PROMPT = 'Do the scripted work.';

/** Runs `executable argv` in `cwd` with `env` and the prompt on stdin; its stdout (text) and exit status. Its stderr is ours. */
export async function runProviderOnce(executable, argv, { cwd, env }) {
  const child = spawn(executable, argv, { cwd, env, stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(RECORDING_PROMPT);
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  const code = await new Promise((resolve) => child.on('close', (status) => resolve(status)));
  return { stdout, code };
}

/** Each temporary path replaced by its placeholder, in the order given (the longest, most specific first). */
export function replacePaths(text, places) {
  let out = text;
  for (const [path, placeholder] of places) out = out.split(path).join(placeholder);
  return out;
}

/** Writes `<name>.jsonl` into STATECRAFT_RECORD_INTO when set (the test that the committed streams are current), else into `directory`. */
export async function writeRecording(directory, name, text) {
  const file = join(process.env.STATECRAFT_RECORD_INTO ?? directory, `${name}.jsonl`);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}
