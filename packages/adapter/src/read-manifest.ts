import { ManifestSchema, type Manifest } from './protocol/manifest.js';
import { describeSchemaIssues } from './schema-errors.js';
import { wordsAfterPath } from './failure-words.js';
import { readRegularFile } from './regular-file.js';
import { canonicalJson } from './canonical-json.js';
import { sha256Hex } from './content-digest.js';

export type ManifestReading =
  /** `digest`: the manifest's identity for qualification (manifestDigest). */
  | { kind: 'read'; manifest: Manifest; path: string; digest: string }
  | { kind: 'refused'; path: string; reason: 'missing' | 'unreadable' | 'not-json' | 'invalid'; message: string };

/** A manifest is a few hundred bytes; one over a mebibyte is not one. */
const MANIFEST_BOUND_BYTES = 1024 * 1024;

/** The sidecar manifest's path: `<executable>.manifest.json` (R2.2). */
export function sidecarManifestPath(executable: string): string {
  return `${executable}.manifest.json`;
}

/**
 * Reads and validates a manifest. Nothing is executed: the manifest is data beside the
 * executable (R2.2), so a broken adapter cannot lie about its capabilities by running.
 */
export async function readManifest(path: string): Promise<ManifestReading> {
  let text: string;
  try {
    // Through the regular-file reader: a FIFO at the manifest's path must not hang the launch, nor a huge file fill memory.
    text = await readRegularFile(path, MANIFEST_BOUND_BYTES);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      return {
        kind: 'refused',
        path,
        reason: 'missing',
        message: `${path}: no manifest here (an adapter's manifest sits beside its executable, named <executable>.manifest.json)`,
      };
    }
    const said = wordsAfterPath(error, path) ?? code ?? String(error);
    return { kind: 'refused', path, reason: 'unreadable', message: `${path}: cannot read the manifest (${said})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { kind: 'refused', path, reason: 'not-json', message: `${path}: not JSON (${(error as Error).message})` };
  }
  const parsed = ManifestSchema.safeParse(json);
  if (!parsed.success) {
    return { kind: 'refused', path, reason: 'invalid', message: describeSchemaIssues(path, parsed.error) };
  }
  return { kind: 'read', manifest: parsed.data, path, digest: manifestDigest(parsed.data) };
}

/**
 * `sha256:<hex>` of the manifest as the supervisor reads it: the canonical JSON of the validated
 * document, not the file's bytes. The manifest decides the tokens, the environment passed and the
 * writable managed paths (R2.2), so a qualification binds it (R3.1); canonical JSON binds exactly
 * that, and a manifest re-indented or with its keys reordered stays the qualified one.
 */
function manifestDigest(manifest: Manifest): string {
  return `sha256:${sha256Hex(canonicalJson(manifest))}`;
}
