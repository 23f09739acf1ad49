import { readKeptFile, type AttemptAccount, type Artifact } from '@statecraft/records';
import type { PermissionMode } from '@statecraft/adapter';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { findAttemptOfRun } from './attempt-of-run.js';

/** What `--retry <run>` reuses from the run's latest attempt when the command line does not give it. */
export interface RetryDefaults {
  /** The adapter executable the attempt ran (its manifest is looked for beside it, as for any path). */
  adapter: string;
  /** Read when the command line gives no prompt: a prompt given again needs no kept one. */
  prompt: () => string;
  deadlineMs: number;
  maxTurns: number | null;
  allow: string[];
  deny: string[];
  required: string[];
  preferred: string[];
  provider: string | undefined;
  /** The permission mode the attempt was given; a record from before the modes was strict. */
  permissions: PermissionMode;
}

/**
 * Reads what a retry reuses from the run's latest attempt: the adapter it ran, and, from the files
 * kept beside the chain, its prompt and its request's limits, each read only when its digest is
 * the one the chain sealed. A kept file that is not is refused (exit 2): a retry must not run a
 * prompt or limits nobody gave.
 */
export async function readRetryDefaults(home: string, target: string, runId: string): Promise<RetryDefaults | undefined> {
  // A run the chain does not hold: `run` refuses it as it always has (unknown-run), nothing appended.
  const account = await findAttemptOfRun({ home, target, runId });
  if (account === undefined) return undefined;
  const prompt = () => keptText(account, account.artifacts.prompt, 'prompt');
  const request = parseRequest(account, keptText(account, account.artifacts.request, 'request'));
  return {
    adapter: account.posture.adapter.path,
    prompt,
    deadlineMs: account.deadline.milliseconds,
    maxTurns: request.limits.maxTurns,
    allow: request.limits.allow,
    deny: request.limits.deny,
    required: [...account.posture.capabilities.requested.required],
    preferred: [...account.posture.capabilities.requested.preferred],
    provider: request.provider?.executable,
    permissions: account.posture.permissions === 'not-recorded' ? 'strict' : account.posture.permissions.mode,
  };
}

interface KeptRequest {
  limits: { maxTurns: number | null; allow: string[]; deny: string[] };
  provider: { executable: string } | null;
}

function keptText(account: AttemptAccount, artifact: Artifact, what: string): string {
  const chunks: Buffer[] = [];
  const reading = readKeptFile(artifact.path, (chunk) => chunks.push(chunk));
  if (reading.kind === 'read' && reading.sha256 === artifact.sha256 && reading.bytes === artifact.bytes) return Buffer.concat(chunks).toString('utf8');
  const why = reading.kind === 'unreadable' ? reading.message : 'it does not match its record';
  throw new CliError(
    `refused: the ${what} kept for run ${account.runId} attempt ${String(account.attempt)} cannot be reused: ${artifact.path}: ${why}`,
    EXIT.refused,
    {
      hint: what === 'prompt' ? 'give the prompt with --prompt or --prompt-file' : 'give --adapter, --prompt and the limits again',
    },
  );
}

/** The request as the chain sealed it (the digest was checked): its limits and provider. */
function parseRequest(account: AttemptAccount, text: string): KeptRequest {
  try {
    const request = JSON.parse(text) as KeptRequest;
    if (typeof request.limits === 'object' && Array.isArray(request.limits.allow) && Array.isArray(request.limits.deny)) return request;
  } catch {
    // Said below: a sealed request that is not one is a record to examine, not to reuse.
  }
  throw new CliError(`refused: the request kept for run ${account.runId} attempt ${String(account.attempt)} holds no limits to reuse`, EXIT.refused, {
    hint: 'give --adapter, --prompt and the limits again',
  });
}
