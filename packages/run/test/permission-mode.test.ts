import { describe, expect, it } from 'vitest';
import { appliedPermissionMode, RequestSchema } from '@statecraft/adapter';
import { buildAttemptRequest } from '../src/index.js';

// The permission mode in the request: only an explicit `sandboxed`, under the
// bwrap boundary and with no allow rules, widens; everything else an adapter reads is `strict`.

const BASE = {
  attempt: { runId: '20261206T120000Z-0123456789ab', number: 1 },
  workspace: '/tmp/ws',
  baseRevision: 'a'.repeat(40),
  required: [],
  preferred: [],
  deadlineMs: 1000,
  prompt: 'p',
} as const;

describe('the request permission mode', () => {
  it('is written only when sandboxed, and an absent field reads strict', () => {
    const strict = buildAttemptRequest({ ...BASE, boundary: 'bwrap', permissions: 'strict' }, new Date());
    expect(strict).not.toHaveProperty('permissions');
    expect(appliedPermissionMode(strict)).toBe('strict');
    const unsaid = buildAttemptRequest({ ...BASE, boundary: 'bwrap' }, new Date());
    expect(appliedPermissionMode(unsaid)).toBe('strict');
    const sandboxed = buildAttemptRequest({ ...BASE, boundary: 'bwrap', permissions: 'sandboxed' }, new Date());
    expect(RequestSchema.parse(sandboxed).permissions).toEqual({ mode: 'sandboxed' });
    expect(appliedPermissionMode(sandboxed)).toBe('sandboxed');
  });

  it('never widens without the boundary, with allow rules, or from a request of before the boundary', () => {
    const withoutBoundary = buildAttemptRequest({ ...BASE, boundary: 'none', permissions: 'sandboxed' }, new Date());
    expect(appliedPermissionMode(withoutBoundary)).toBe('strict');
    const withAllow = buildAttemptRequest({ ...BASE, boundary: 'bwrap', permissions: 'sandboxed', limits: { allow: ['Bash(git:*)'] } }, new Date());
    expect(appliedPermissionMode(withAllow)).toBe('strict');
    const beforeBoundary: Record<string, unknown> = { ...buildAttemptRequest({ ...BASE, boundary: 'bwrap', permissions: 'sandboxed' }, new Date()) };
    delete beforeBoundary.boundary;
    expect(appliedPermissionMode(RequestSchema.parse(beforeBoundary))).toBe('strict');
  });

  it('refuses a mode it does not know rather than reading it as either', () => {
    const request = { ...buildAttemptRequest({ ...BASE, boundary: 'bwrap' }, new Date()), permissions: { mode: 'open' } };
    expect(RequestSchema.safeParse(request).success).toBe(false);
  });
});
