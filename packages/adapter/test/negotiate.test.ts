import { describe, expect, it } from 'vitest';
import { findUnappliedCapabilities, negotiateCapabilities, type InitEvent, type Manifest } from '@statecraft/adapter';

// Negotiation happens before anything is spawned (R2.3); init discrepancies are found after (R2.4).

const manifest: Manifest = {
  name: 'example',
  version: '2.3.4',
  protocol: 1,
  capabilities: ['turn-limit', 'cost-report', 'structured-refusals'],
  requiresCommands: [],
};

describe('negotiating capabilities (R2.3)', () => {
  it('refuses a required token the manifest lacks, naming it and the adapter version', () => {
    const answer = negotiateCapabilities(manifest, ['turn-limit', 'workspace-write'], []);
    expect(answer).toMatchObject({ kind: 'refused', missing: ['workspace-write'], adapter: { name: 'example', version: '2.3.4' } });
    expect(answer.kind === 'refused' ? answer.message : '').toMatch(/workspace-write.*refused before spawn, no process created/);
    expect(answer.kind === 'refused' ? answer.message : '').toContain('2.3.4');
  });

  it('records a missing preferred token as a degradation and runs', () => {
    expect(negotiateCapabilities(manifest, [], ['tool-allowlist', 'cost-report'])).toMatchObject({
      kind: 'negotiated',
      degraded: ['tool-allowlist'],
      unverifiableRefusalAccount: false,
    });
  });

  it('labels an unverifiable refusal account when structured-refusals is preferred and absent', () => {
    const without: Manifest = { ...manifest, capabilities: ['turn-limit'] };
    expect(negotiateCapabilities(without, [], ['structured-refusals'])).toMatchObject({ unverifiableRefusalAccount: true, degraded: ['structured-refusals'] });
  });
});

describe('init discrepancies (R2.4)', () => {
  it('names each declared token the init did not apply', () => {
    const init: InitEvent = {
      type: 'init',
      protocol: 1,
      seq: 0,
      adapter: { name: 'example', version: '2.3.4' },
      provider: 'none',
      requested: { capabilities: [] },
      applied: { capabilities: ['turn-limit'], tools: 'not-recorded', allowlist: 'not-recorded' },
      detail: {},
    };
    expect(findUnappliedCapabilities(manifest, init)).toEqual(['cost-report', 'structured-refusals']);
  });
});
