import type { Manifest } from '@statecraft/adapter';

/**
 * The Codex adapter's manifest, written once here; the bundle script validates it against the
 * seam's schema and writes it beside the bundled executable as `<file>.manifest.json` (R2.2).
 *
 * Each declared token is measured by the suite driver (R14.1): `tool-allowlist`,
 * `hook-enforcement` and `structured-refusals` through the PreToolUse hook the adapter installs
 * and the denial channel it reads (R14.2); `workspace-write` through Codex's own sandbox in
 * workspace-write mode. Not `turn-limit` (Codex has no turn cap) and not `cost-report` (it
 * reports tokens, never cost): docs/facts.md items 21, 22.
 *
 * Managed paths: `~/.codex`, under which each attempt gets a private CODEX_HOME (never the
 * operator's own configuration, which is not read), and `/tmp/codex-daemon-1000`, the directory
 * Codex's sandbox helper makes for uid 1000 — the uid the evidence boundary gives the child —
 * at a fixed place under /tmp (docs/facts.md, nested sandbox).
 */
export const CODEX_MANIFEST: Manifest = {
  name: 'codex',
  version: '0.1.0',
  protocol: 1,
  capabilities: ['tool-allowlist', 'workspace-write', 'hook-enforcement', 'structured-refusals'],
  requiresCommands: ['codex'],
  environment: {
    pass: [
      { name: 'HOME', secret: false, why: "locates ~/.codex, under which each attempt's private CODEX_HOME is made" },
      { name: 'OPENAI_API_KEY', secret: true, why: 'credential: the API key Codex sends to the Responses-API endpoint' },
      { name: 'OPENAI_BASE_URL', secret: false, why: 'the Responses-API endpoint the adapter points Codex at (a gateway, or a scripted model on loopback)' },
    ],
  },
  managedPaths: ['~/.codex', '/tmp/codex-daemon-1000'],
  prerequisites: [{ kind: 'command', command: 'codex' }, { kind: 'qualification' }, { kind: 'credential', anyOf: [{ env: 'OPENAI_API_KEY' }] }],
};
