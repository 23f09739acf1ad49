import { randomUUID } from 'node:crypto';
import type { ProtocolEvent } from '@statecraft/adapter';
import { GENEROUS_DEADLINE_MS, type SuiteContext } from '../suite-context.js';
import { findTaggedProcesses, type TaggedProcess } from '../tagged-processes.js';
import { Findings, notRun, resultOf, type CaseVerdict } from './verdict.js';

/**
 * Row 3 (R7.2, R7.3): a hung child is killed at the deadline with every descendant, one that
 * called setsid included. The suite is its own witness: it looks for processes carrying the
 * attempt tag while the child hangs and again after the supervisor returns, beside the
 * supervisor's own survivor report.
 */
export async function checkHungChildKilled(context: SuiteContext): Promise<CaseVerdict> {
  const provocation = context.provocationFor('hang');
  if (provocation === 'not-applicable') return notRun('the driver cannot provoke a hang');
  const seenWhileRunning: { processes: TaggedProcess[] | 'not-observable' } = { processes: [] };
  const attemptTag = `statecraft-negative-suite-row-3-${randomUUID()}`;
  const events: ProtocolEvent[] = [];
  const provoked = await context.provoke(provocation, {
    attemptTag,
    onEvent: (event: ProtocolEvent) => {
      events.push(event);
      // The descendant exists once it is reported: this is the moment to see the tree whole.
      if (reportedDescendant(event) !== undefined) seenWhileRunning.processes = findTaggedProcesses(attemptTag);
    },
  });
  const ran = resultOf(provoked);
  if ('verdict' in ran) return ran.verdict;
  const { result } = ran;
  const deadlineMs = provocation.deadlineMs ?? GENEROUS_DEADLINE_MS;
  const findings = new Findings();
  findings.expect(result.timedOut, 'the deadline did not fire (timedOut is false)');
  findings.expect(result.outcome === 'interrupted', `outcome is ${result.outcome}, expected interrupted`);
  findings.expect(result.cause === 'deadline', `cause is ${result.cause}, expected deadline`);
  findings.expect(result.durationMs >= deadlineMs - 50, `the attempt ended after ${result.durationMs} ms, before its ${deadlineMs} ms deadline`);
  findings.expect(result.survivors.length === 0, `the supervisor reports survivors: ${result.survivors.map((s) => s.pid).join(', ')}`);
  const after = findTaggedProcesses(attemptTag);
  if (after !== 'not-observable') {
    findings.expect(after.length === 0, `processes carrying the attempt tag survive: ${after.map((p) => `${p.pid} (${p.command})`).join(', ')}`);
  }
  const descendant = events.map(reportedDescendant).find((pid) => pid !== undefined);
  const whileRunning = seenWhileRunning.processes;
  const seen = whileRunning === 'not-observable' ? 'not observable' : `${whileRunning.length} tagged process(es) seen while it hung`;
  findings.observe(
    `interrupted at the ${deadlineMs} ms deadline (timedOut) under ${result.containment.mechanism}; ` +
      (descendant === undefined ? 'the adapter reported no descendant; ' : `setsid descendant ${descendant} reported; `) +
      `${seen}; none carrying the attempt tag survive`,
  );
  return findings.verdict(provocation.evidence);
}

/** A descendant's pid, when the adapter reports one in a progress event's detail. */
export function reportedDescendant(event: ProtocolEvent): number | undefined {
  if (event.type !== 'progress' || typeof event.detail !== 'object' || event.detail === null) return undefined;
  const pid = (event.detail as { descendantPid?: unknown }).descendantPid;
  return typeof pid === 'number' ? pid : undefined;
}
