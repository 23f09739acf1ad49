import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LONGEST_TIMER_MS, startDeadline } from '../src/supervise/deadline.js';

/** Whether the deadline has fired yet, without waiting for it. */
async function hasFired(expired: Promise<'deadline'>): Promise<boolean> {
  return Promise.race([expired.then(() => true), Promise.resolve().then(() => false)]);
}

describe('the deadline timer (R7.2)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a deadline longer than one Node timer holds (600 h) fires at its time and not before (R7.2)', async () => {
    const deadlineMs = 600 * 3_600_000;
    expect(deadlineMs).toBeGreaterThan(LONGEST_TIMER_MS);
    const deadline = startDeadline(deadlineMs);
    await vi.advanceTimersByTimeAsync(50);
    expect(await hasFired(deadline.expired)).toBe(false);
    await vi.advanceTimersByTimeAsync(LONGEST_TIMER_MS);
    expect(await hasFired(deadline.expired)).toBe(false);
    await vi.advanceTimersByTimeAsync(deadlineMs - LONGEST_TIMER_MS - 50 - 1);
    expect(await hasFired(deadline.expired)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await hasFired(deadline.expired)).toBe(true);
  });

  it('a deadline of several whole timers fires at its time and not before', async () => {
    const deadlineMs = 3 * LONGEST_TIMER_MS;
    const deadline = startDeadline(deadlineMs);
    await vi.advanceTimersByTimeAsync(deadlineMs - 1);
    expect(await hasFired(deadline.expired)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await hasFired(deadline.expired)).toBe(true);
  });

  it('a cancelled long deadline never fires, whichever link of the chain was pending', async () => {
    const deadline = startDeadline(2 * LONGEST_TIMER_MS + 5);
    await vi.advanceTimersByTimeAsync(LONGEST_TIMER_MS + 1);
    deadline.cancel();
    await vi.advanceTimersByTimeAsync(3 * LONGEST_TIMER_MS);
    expect(await hasFired(deadline.expired)).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a short deadline is one timer and fires at its time', async () => {
    const deadline = startDeadline(1_000);
    await vi.advanceTimersByTimeAsync(999);
    expect(await hasFired(deadline.expired)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await hasFired(deadline.expired)).toBe(true);
  });
});
