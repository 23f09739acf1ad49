import type { Manifest, ProviderIdentityFile } from '@statecraft/adapter';

/** Files of the platform package codex.js runs on `<os>/<arch>`, under `vendor/<triple>/`. */
function nativeFiles(os: string, arch: string, triple: string, files: readonly string[]): ProviderIdentityFile[] {
  return files.map((file) => ({ kind: 'node-package-file', os, arch, package: `@openai/codex-${os}-${arch}`, file: `vendor/${triple}/${file}` }));
}

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
 * Managed path: `/tmp/codex-daemon-1000` alone, the directory Codex's sandbox helper makes for
 * uid 1000 — the uid the evidence boundary gives the child — at a fixed place under /tmp
 * (docs/facts.md, nested sandbox). Each attempt's private CODEX_HOME lives in the attempt's TMPDIR,
 * which the boundary makes writable anyway, and Codex given that CODEX_HOME writes nothing under
 * `$HOME` (docs/facts.md item 30): the operator's `~/.codex` is neither read, made nor writable.
 *
 * Provider identity (R3.1): `codex` from npm is the launcher `bin/codex.js`, whose bytes do not
 * change between releases (0.168.0 and 0.169.0 ship the same file); it runs the native binary of
 * the platform package it resolves from its own real path (`@openai/codex-<os>-<arch>`, its
 * `vendor/<target triple>/bin/codex`, the table in codex.js). So the identity binds that binary
 * too, and on Linux the bubblewrap it ships (`codex-resources/bwrap`), which enforces its
 * workspace-write sandbox where /usr/bin/bwrap is absent (docs/facts.md item 23). Not bound: its
 * `codex-path/rg`, `bin/codex-code-mode-host` and voice resources. The darwin paths are codex.js's
 * table, not measured here.
 */
export const CODEX_MANIFEST: Manifest = {
  name: 'codex',
  version: '0.1.0',
  protocol: 1,
  capabilities: ['tool-allowlist', 'workspace-write', 'hook-enforcement', 'structured-refusals'],
  requiresCommands: ['codex'],
  environment: {
    pass: [
      {
        name: 'HOME',
        secret: false,
        why: "the operator's home, which the commands Codex runs expect (a login shell's profile, git's and npm's configuration); Codex's own state lives in the attempt's private CODEX_HOME, not under it",
      },
      { name: 'OPENAI_API_KEY', secret: true, why: 'credential: the API key Codex sends to the Responses-API endpoint' },
      { name: 'OPENAI_BASE_URL', secret: false, why: 'the Responses-API endpoint the adapter points Codex at (a gateway, or a scripted model on loopback)' },
    ],
  },
  managedPaths: ['/tmp/codex-daemon-1000'],
  prerequisites: [{ kind: 'command', command: 'codex' }, { kind: 'qualification' }, { kind: 'credential', anyOf: [{ env: 'OPENAI_API_KEY' }] }],
  providerIdentityFiles: [
    ...nativeFiles('linux', 'x64', 'x86_64-unknown-linux-musl', ['bin/codex', 'codex-resources/bwrap']),
    ...nativeFiles('linux', 'arm64', 'aarch64-unknown-linux-musl', ['bin/codex', 'codex-resources/bwrap']),
    ...nativeFiles('darwin', 'x64', 'x86_64-apple-darwin', ['bin/codex']),
    ...nativeFiles('darwin', 'arm64', 'aarch64-apple-darwin', ['bin/codex']),
  ],
};
