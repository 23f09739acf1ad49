import type { Manifest } from '@statecraft/adapter';

/**
 * The Claude Code adapter's manifest, written once here; the bundle script validates it against
 * the seam's schema and writes it beside the bundled executable as `<file>.manifest.json` (R2.2).
 *
 * Each declared token is measured by the suite driver (R10.5). `workspace-write` holds inside the
 * evidence boundary only (R12): there the adapter asks claude for `acceptEdits` and bwrap keeps
 * every write in the workspace; with `--boundary none` the init reports it not applied, and a run
 * that requires it is refused before spawn (R2.3). The credential path is Linux's (docs/facts.md item 11): `HOME` locates
 * `~/.claude/.credentials.json`, `ANTHROPIC_API_KEY` is a key, `ANTHROPIC_BASE_URL` a gateway.
 *
 * No `providerIdentityFiles`: `node_modules/.bin/claude` resolves to the package's
 * `bin/claude.exe`, which is the native binary itself (its postinstall places the platform
 * package's `claude` there; in this repository's install a hard link to the same inode), and that
 * binary starts no other file of its package (its ripgrep is built in). The executable's digest is
 * the whole identity (R3.1).
 */
export const CLAUDE_CODE_MANIFEST: Manifest = {
  name: 'claude-code',
  version: '0.1.0',
  protocol: 1,
  capabilities: ['tool-allowlist', 'turn-limit', 'workspace-write', 'hook-enforcement', 'cost-report', 'structured-refusals'],
  requiresCommands: ['claude'],
  environment: {
    pass: [
      {
        name: 'HOME',
        secret: false,
        why: "credential path: ~/.claude/.credentials.json (an OAuth login), linked into the attempt's private configuration directory; the home the commands claude runs expect",
      },
      { name: 'ANTHROPIC_API_KEY', secret: true, why: 'credential: an API key, when the provider authenticates with one' },
      { name: 'ANTHROPIC_BASE_URL', secret: false, why: 'the API endpoint, when a gateway or proxy stands in front of it' },
    ],
  },
  // No managed path: claude's state lives in the attempt's private CLAUDE_CONFIG_DIR (config-directory.ts);
  // only the login's credentials file is read from the operator's ~/.claude.
  readablePaths: ['~/.claude/.credentials.json'],
  prerequisites: [
    { kind: 'command', command: 'claude' },
    { kind: 'qualification' },
    { kind: 'credential', anyOf: [{ env: 'ANTHROPIC_API_KEY' }, { file: '~/.claude/.credentials.json' }] },
  ],
};
