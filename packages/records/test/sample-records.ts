/** A valid intent record (without its link), for chain tests that need real records. */
export function sampleIntent(attempt: number): Record<string, unknown> {
  const digest = 'a'.repeat(64);
  const artifact = { path: `attempts/20261130T040000Z-abcdef/${attempt}/request.json`, sha256: digest, bytes: 10 };
  return {
    kind: 'intent',
    at: '2026-11-30T04:00:00.000Z',
    runId: '20261130T040000Z-abcdef',
    attempt,
    adapter: { name: 'fixture', version: '1.0.0' },
    qualification: 'unqualified',
    target: { path: '/tmp/target', key: 'k' },
    baseCommit: 'b'.repeat(40),
    branch: 'statecraft/20261130T040000Z-abcdef',
    workspace: '/tmp/target/.statecraft/state/workspaces/20261130T040000Z-abcdef',
    prompt: { sha256: digest, bytes: 10 },
    artifacts: { request: artifact, prompt: { ...artifact, path: `attempts/20261130T040000Z-abcdef/${attempt}/prompt.txt` } },
    deadline: { milliseconds: 1000, at: '2026-11-30T04:00:01.000Z' },
    supervisor: { pid: 1, host: 'h' },
    posture: {
      adapter: { name: 'fixture', version: '1.0.0', digest: `sha256:${digest}`, path: '/bin/fixture' },
      qualification: { verdict: 'unqualified', reason: 'no record' },
      capabilities: {
        requested: { required: [], preferred: [] },
        declared: ['cost-report'],
        applied: 'not-recorded',
        degraded: [],
        notApplied: [],
        unverifiableRefusalAccount: false,
      },
      environment: { state: 'applied', names: [], absent: [], refusals: [], residuals: [] },
      containment: { mechanism: 'process-group', blindSpots: [] },
      survivors: 'not-recorded',
      coverage: { verdict: 'not-checked' },
    },
    truncatedTail: 'none',
  };
}
