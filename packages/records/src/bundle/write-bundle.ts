import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openTargetRecords, type OpenedTargetRecords } from '../read/open-target-records.js';
import { readKeptFile, type KeptFileReading } from '../read/read-kept-file.js';
import { createHash } from 'node:crypto';
import { signStatement } from '../signing/sign-statement.js';
import { bundleManifestStatement } from '../signing/signed-statement.js';
import type { SigningKey } from '../signing/signing-key.js';
import { BundleManifestSchema, manifestBytes, MANIFEST_PATH, MANIFEST_SIGNATURE_PATH, type BundleFile, type BundleManifest } from './bundle-manifest.js';
import type { ChainEntry } from '../chain/open-chain.js';
import { signingKeysUsed } from './signing-keys-used.js';
import { writeTar } from './write-tar.js';
import { candidateGitBundle } from './candidate-git-bundle.js';
import { collectRunFiles, digestOfBytes, type BundleSource, type NotExported } from './collect-bundle.js';

export type BundleWriting =
  | { kind: 'written'; path: string; form: 'tar' | 'directory'; manifest: BundleManifest; notExported: NotExported[] }
  | { kind: 'refused'; message: string }
  | { kind: 'failed'; path: string; message: string };

/**
 * Writes one run's bundle (decision 0281): `manifest.json` first, then the chain's lines, then
 * every kept file, as a tar or, with `form: 'directory'`, as the same files in a directory. Kept
 * files are streamed, never held: a tar copies each from where it is kept (write-tar.ts), a
 * directory by copying. The output is made beside its final name and renamed into place, so a failed export
 * leaves nothing that reads as a bundle; an existing path is never overwritten.
 */
export async function writeRunBundle(input: {
  home: string;
  target: string;
  runId: string;
  output: string;
  form: 'tar' | 'directory';
  statecraftVersion: string;
  /** Where `STATECRAFT_SIGNING_KEY` is read: the public key of a signature it made goes with it. */
  environment: Readonly<Record<string, string | undefined>>;
  /** Made by the caller: the reviewer's page. */
  extra: readonly BundleSource[];
  /** Signs the manifest (`manifest.sigstore.json`), so one trusted key believes every file of the bundle. */
  signer?: SigningKey;
  /**
   * Kept files the caller has just read whole, by path, with the digest of what it read (the
   * reviewer's page reads the attempt's files): not read a second time before they are copied.
   */
  digested?: ReadonlyMap<string, { sha256: string; bytes: number }>;
  /** The target's records as the caller opened them for the page: the bundle is made from the same verified reading, not a second one. */
  records?: OpenedTargetRecords;
}): Promise<BundleWriting> {
  const records = input.records ?? (await openTargetRecords(input.home, input.target));
  if (records.kind === 'opened') {
    if (!records.entries.some((entry) => entry.record.kind === 'intent' && entry.record.runId === input.runId))
      return { kind: 'refused', message: `run ${input.runId} has no record for ${records.target}` };
  } else if (records.kind === 'failed') return { kind: 'failed', path: records.path, message: records.message };
  else return { kind: 'refused', message: records.message };
  // Looked at, not followed: a link, even one to nothing, is something a bundle would replace.
  const there = lstatSync(input.output, { throwIfNoEntry: false });
  if (there !== undefined && !(input.form === 'directory' && there.isDirectory() && readdirSync(input.output).length === 0))
    return { kind: 'refused', message: `${input.output} already exists: a bundle is never written over anything` };
  const tip = records.entries.at(-1);
  if (tip === undefined) return { kind: 'refused', message: `the chain of ${records.target} is empty` };
  const { sources, notExported } = await collectRunFiles({ ...records, home: input.home, runId: input.runId });
  sources.push(...(await signingKeysUsed(input.home, input.environment, sources)), ...input.extra);
  const signerKey = input.signer === undefined ? undefined : `keys/${input.signer.keyId}.pub`;
  if (input.signer !== undefined && signerKey !== undefined && !sources.some((source) => source.path === signerKey))
    sources.push({ path: signerKey, role: 'public-key', from: { kind: 'bytes', bytes: Buffer.from(input.signer.publicKeyPem) } });
  // The git bundle is made in a place of its own, read from there like a kept file, and removed after.
  const gitStaging = mkdtempSync(join(tmpdir(), '.statecraft-git-bundle-'));
  try {
    const git = await candidateGitBundle({ target: records.target, entries: records.entries, runId: input.runId, directory: gitStaging });
    if ('source' in git) sources.push(git.source);
    else if ('notExported' in git) notExported.push(git.notExported);
    return await writeSources(input, records, tip, sources, notExported);
  } finally {
    rmSync(gitStaging, { recursive: true, force: true });
  }
}

/** The manifest made from the sources that could be read, and the bundle written beside its final name, then renamed into place. */
async function writeSources(
  input: {
    runId: string;
    output: string;
    form: 'tar' | 'directory';
    statecraftVersion: string;
    signer?: SigningKey;
    digested?: ReadonlyMap<string, { sha256: string; bytes: number }>;
  },
  records: { target: string; entries: readonly ChainEntry[] },
  tip: ChainEntry,
  sources: readonly BundleSource[],
  notExported: NotExported[],
): Promise<BundleWriting> {
  const files: BundleFile[] = [];
  for (const source of sources) {
    const digest =
      source.from.kind === 'bytes' ? { kind: 'read' as const, ...digestOfBytes(source.from.bytes) } : digestOfFile(source.from.path, input.digested);
    if (digest.kind === 'unreadable') {
      notExported.push({ path: source.path, why: digest.why });
      continue;
    }
    files.push({ path: source.path, role: source.role, sha256: digest.sha256, bytes: digest.bytes });
  }
  const kept = sources.filter((source) => files.some((file) => file.path === source.path));
  const intent = records.entries.find((entry) => entry.record.kind === 'intent' && entry.record.runId === input.runId)?.record;
  const manifest = BundleManifestSchema.parse({
    kind: 'statecraft-bundle',
    bundleVersion: 1,
    exportedAt: new Date().toISOString(),
    statecraft: { version: input.statecraftVersion },
    target: intent?.kind === 'intent' ? intent.target : { path: records.target, key: records.target },
    runId: input.runId,
    chainTip: { seq: tip.record.seq, digest: tip.digest },
    files,
  });
  let staging: string;
  try {
    // A directory is staged beside where it goes, to be renamed into place.
    staging = mkdtempSync(join(input.form === 'directory' ? dirname(input.output) : tmpdir(), '.statecraft-export-'));
  } catch (error) {
    return { kind: 'failed', path: input.output, message: `cannot stage the bundle beside it (${(error as Error).message})` };
  }
  try {
    const bytes = manifestBytes(manifest);
    writeFileSync(join(staging, MANIFEST_PATH), bytes);
    const signed = input.signer === undefined ? [] : [MANIFEST_SIGNATURE_PATH];
    if (input.signer !== undefined)
      writeFileSync(
        join(staging, MANIFEST_SIGNATURE_PATH),
        `${JSON.stringify(await signStatement(input.signer, bundleManifestStatement(manifest, createHash('sha256').update(bytes).digest('hex'))))}\n`,
      );
    for (const source of kept) {
      // A tar reads a kept file from where it is kept; only what the export made is staged.
      if (input.form === 'tar' && source.from.kind === 'file') continue;
      const at = join(staging, source.path);
      mkdirSync(dirname(at), { recursive: true });
      if (source.from.kind === 'bytes') writeFileSync(at, source.from.bytes);
      else if (input.form === 'directory') copyFileSync(source.from.path, at);
    }
    if (input.form === 'directory') {
      if (existsSync(input.output)) rmSync(input.output, { recursive: true });
      renameSync(staging, input.output);
    } else {
      const partial = `${input.output}.partial-${process.pid}`;
      const size = new Map(files.map((file) => [file.path, file.bytes]));
      writeTar(partial, [
        { path: MANIFEST_PATH, source: join(staging, MANIFEST_PATH), bytes: bytes.length },
        ...signed.map((path) => ({ path, source: join(staging, path), bytes: statSync(join(staging, path)).size })),
        // Each kept file read from where it is kept, as many bytes as were digested.
        ...kept.map((source) => ({
          path: source.path,
          source: source.from.kind === 'file' ? source.from.path : join(staging, source.path),
          bytes: size.get(source.path) ?? 0,
        })),
      ]);
      renameSync(partial, input.output);
    }
  } catch (error) {
    return { kind: 'failed', path: input.output, message: (error as Error).message };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return { kind: 'written', path: input.output, form: input.form, manifest, notExported };
}

/** A kept file's digest: as the caller read it a moment ago, or read now. */
function digestOfFile(path: string, digested: ReadonlyMap<string, { sha256: string; bytes: number }> | undefined): KeptFileReading {
  const known = digested?.get(path);
  return known === undefined ? readKeptFile(path) : { kind: 'read', ...known };
}
