import { describe, expect, it } from 'vitest';
import { CAPABILITY_TOKENS, CapabilityListSchema, CapabilityTokenSchema } from '@statecraft/adapter';

describe('the capability vocabulary (R2.1)', () => {
  it('has exactly six tokens, the ones docs/requirements.md names', () => {
    expect(CAPABILITY_TOKENS).toHaveLength(6);
    expect([...CAPABILITY_TOKENS].sort()).toEqual([
      'cost-report',
      'hook-enforcement',
      'structured-refusals',
      'tool-allowlist',
      'turn-limit',
      'workspace-write',
    ]);
  });

  it('refuses a token outside the vocabulary instead of accepting configuration', () => {
    expect(CapabilityTokenSchema.safeParse('network-off').success).toBe(false);
  });

  it('refuses a list naming a token twice', () => {
    expect(CapabilityListSchema.safeParse(['turn-limit', 'turn-limit']).success).toBe(false);
  });
});
