import { access, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CAPABILITY_TOKENS, type CapabilityToken } from '@statecraft/adapter';
import type { SuiteContext } from '../suite-context.js';
import { findTaggedProcesses } from '../tagged-processes.js';
import { Findings, fail, notRun, type CaseVerdict } from './verdict.js';

/**
 * Row 2 (R2.3): a required token the manifest lacks is refused before spawn, naming the token and
 * the adapter version, with no process created: no request file, no stream, no attempt directory,
 * no process carrying the attempt tag.
 */
export async function checkRequiredTokenRefused(context: SuiteContext): Promise<CaseVerdict> {
  const provocation = context.provocationFor('complete');
  if (provocation === 'not-applicable') return notRun('the driver cannot provoke a completed attempt');
  const { token, manifestPath } = await manifestLackingAToken(context);
  const provoked = await context.provoke(provocation, { manifestPath, required: [token] });
  const answer = provoked.answer;
  if (answer.kind !== 'refused' || answer.stage !== 'negotiation') {
    return fail(
      provocation.evidence,
      `requiring ${token}, which the manifest lacks, was not refused at negotiation (${answer.kind === 'ran' ? `it ran: ${answer.result.outcome}` : `refused at ${answer.stage}`})`,
    );
  }
  const findings = new Findings();
  findings.expect(answer.negotiation.missing.includes(token), `the refusal does not name ${token}`);
  findings.expect(answer.message.includes(token), `the message does not name the token: ${answer.message}`);
  findings.expect(answer.message.includes(context.manifest.version), `the message does not name the adapter version: ${answer.message}`);
  findings.expect(!(await exists(answer.files.request)), `a request file was written: ${answer.files.request}`);
  findings.expect(!(await exists(answer.files.stream)), `a stream file was written: ${answer.files.stream}`);
  const tagged = findTaggedProcesses(answer.attemptTag);
  findings.expect(tagged === 'not-observable' || tagged.length === 0, 'a process carrying the attempt tag exists');
  findings.expect(provoked.events.length === 0, `${provoked.events.length} events were read`);
  findings.observe(
    `refused before spawn: "${answer.message}"; no request, no stream, no tagged process${tagged === 'not-observable' ? ' (process table not observable here)' : ''}`,
  );
  return findings.verdict(provocation.evidence);
}

/**
 * The adapter's own manifest when it lacks some token; otherwise (it declares all six) a copy
 * without the last token, so the row can still be provoked against this executable.
 */
async function manifestLackingAToken(context: SuiteContext): Promise<{ token: CapabilityToken; manifestPath: string }> {
  const lacking = CAPABILITY_TOKENS.find((token) => !context.manifest.capabilities.includes(token));
  if (lacking !== undefined) return { token: lacking, manifestPath: context.manifestPath };
  const token: CapabilityToken = 'structured-refusals';
  const narrowed = { ...context.manifest, capabilities: context.manifest.capabilities.filter((entry) => entry !== token) };
  const dir = await mkdtemp(join(context.scratchDir, 'narrowed-manifest-'));
  const manifestPath = join(dir, 'manifest.json');
  await writeFile(manifestPath, JSON.stringify(narrowed));
  return { token, manifestPath };
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
