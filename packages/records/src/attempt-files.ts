import { randomUUID } from 'node:crypto';

/**
 * The names of one attempt's files and its process tag, for `run` and the negative suite alike:
 * what a qualification vouches for is named and tagged as a run names and tags it.
 */
export const ATTEMPT_FILE_NAMES = {
  request: 'request.json',
  prompt: 'prompt.txt',
  stream: 'stream.ndjson',
  stderr: 'stderr.log',
  result: 'result.json',
} as const;

/** The directory of one attempt, relative to where its records live (so a moved home still reads). */
export function attemptDirectoryName(runId: string, attempt: number): string {
  return `attempts/${runId}/${attempt}`;
}

/** Each file of one attempt, relative to where its records live. */
export function attemptArtifactNames(runId: string, attempt: number): Record<keyof typeof ATTEMPT_FILE_NAMES, string> {
  const base = attemptDirectoryName(runId, attempt);
  return {
    request: `${base}/${ATTEMPT_FILE_NAMES.request}`,
    prompt: `${base}/${ATTEMPT_FILE_NAMES.prompt}`,
    stream: `${base}/${ATTEMPT_FILE_NAMES.stream}`,
    stderr: `${base}/${ATTEMPT_FILE_NAMES.stderr}`,
    result: `${base}/${ATTEMPT_FILE_NAMES.result}`,
  };
}

/**
 * The tag every process of the attempt inherits in its environment (R7.3): unique, and naming the
 * attempt, so a sweep of `/proc` finds the attempt's escaped descendants and nothing else.
 */
export function newAttemptTag(runId: string, attempt: number): string {
  return `statecraft-${runId}-${attempt}-${randomUUID()}`;
}
