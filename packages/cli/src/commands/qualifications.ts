import { resolve } from 'node:path';
import { checkQualification, listQualificationRecords, QualificationIdSchema, showQualificationRecord } from '@statecraft/records';
import { digestFile, identifyProvider, readManifest, sidecarManifestPath, type AdapterIdentity, type Manifest } from '@statecraft/adapter';
import type { z } from 'zod';
import type { QualificationsCheckAnswerSchema, QualificationsListAnswerSchema, QualificationsShowAnswerSchema } from '../json-schemas/index.js';
import type { Answer } from '../answer.js';
import { CliError, IoFailure, UsageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { renderCheck, renderList, renderShow } from './qualifications-render.js';
import { trustedKeysOrRefusal } from './signing-options.js';

/** Files under qualifications/ that are not valid records are in `unreadable`: reported, never skipped silently. */
export type ListValue = z.infer<typeof QualificationsListAnswerSchema>;

/** `statecraft qualifications list`: every record in the product home (R3.4). Exit 1 if any is unreadable. */
export async function listQualifications(options: { home: string }): Promise<Answer<ListValue>> {
  const { records, unreadable } = await listQualificationRecords(options.home);
  const value: ListValue = {
    home: options.home,
    records: records.map(({ id, path, record }) => ({
      id,
      path,
      adapter: record.adapter,
      provider: record.provider,
      suiteVersion: record.suiteVersion,
      protocol: record.protocol,
      platform: record.platform,
      date: record.date,
      cases: { passed: record.cases.filter((entry) => entry.status === 'pass').length, total: record.cases.length },
    })),
    unreadable,
  };
  return { value, exitCode: unreadable.length > 0 ? EXIT.finding : EXIT.ok, human: renderList };
}

export type ShowValue = z.infer<typeof QualificationsShowAnswerSchema>;

/**
 * `statecraft qualifications show <id>`: one record, whole (R3.4). An id that is not an id is a
 * usage error (exit 3); a well-formed id with no record is a refusal (exit 2): the arguments were
 * right, the precondition — a record — was not met (decision 0029). An unreadable record fails (exit 4).
 */
export async function showQualification(options: { home: string; id: string }): Promise<Answer<ShowValue>> {
  const parsedId = QualificationIdSchema.safeParse(options.id);
  if (!parsedId.success) {
    throw new UsageError(
      `${JSON.stringify(options.id)} is not a qualification record id (${parsedId.error.issues[0]?.message ?? 'invalid'})`,
      'statecraft qualifications list prints the ids',
    );
  }
  const shown = await showQualificationRecord(options.home, options.id);
  if (shown.kind === 'not-found') {
    throw new CliError(`refused: no qualification record has the id ${options.id} (${shown.path} does not exist)`, EXIT.refused, {
      hint: 'statecraft qualifications list prints the ids of the records there are; statecraft qualify <binary> writes one',
    });
  }
  if (shown.kind === 'invalid') throw new IoFailure(shown.path, `not a valid qualification record:\n${shown.message}`);
  return { value: { path: shown.path, record: shown.record }, exitCode: EXIT.ok, human: renderShow };
}

export type CheckValue = z.infer<typeof QualificationsCheckAnswerSchema>;

/**
 * `statecraft qualifications check <binary>`: whether this exact binary, read with this manifest
 * (or pair), is qualified and why (R3.3, R3.4). Executes nothing: the manifest is read and the
 * bytes digested. Exit 0 qualified, 1 unqualified.
 */
export async function checkQualifications(options: {
  home: string;
  binary: string;
  manifest?: string;
  provider?: string;
  trust: readonly string[];
}): Promise<Answer<CheckValue>> {
  const trustedKeys = await trustedKeysOrRefusal(options.trust, process.env);
  const executable = resolve(options.binary);
  const manifestPath = resolve(options.manifest ?? sidecarManifestPath(executable));
  const reading = await readManifest(manifestPath);
  if (reading.kind === 'refused') {
    throw new CliError(`refused: ${reading.message}`, EXIT.refused, { hint: 'name the manifest with --manifest <file>' });
  }
  const digest = await digestOrFail(executable);
  const provider = options.provider === undefined ? undefined : await namedProvider(resolve(options.provider), reading.manifest);
  const adapter: AdapterIdentity = { name: reading.manifest.name, version: reading.manifest.version, digest };
  const manifest = { path: manifestPath, digest: reading.digest };
  const verdict = await checkQualification({
    home: options.home,
    adapter,
    manifest,
    ...(provider === undefined ? {} : { provider: provider.identity }),
    trustedKeys,
  });
  const value: CheckValue = {
    verdict: verdict.verdict,
    reason: verdict.reason,
    adapter,
    manifest,
    provider: provider ?? 'none',
    record: verdict.record === undefined ? null : { id: verdict.record.id, path: verdict.record.path },
    ...(verdict.signature === undefined ? {} : { signature: verdict.signature }),
    trustedKeys: trustedKeys.map((key) => key.keyId),
  };
  return { value, exitCode: verdict.verdict === 'qualified' ? EXIT.ok : EXIT.finding, human: renderCheck };
}

/** The provider the operator named: its bytes' digest, and its identity under this adapter's manifest (R3.1). */
async function namedProvider(executable: string, manifest: Manifest): Promise<Exclude<CheckValue['provider'], 'none'>> {
  const digest = await digestOrFail(executable);
  const identity = await identifyProvider({ executable, executableDigest: digest, declared: manifest.providerIdentityFiles });
  return { executable, digest, identity };
}

async function digestOrFail(path: string): Promise<string> {
  try {
    return await digestFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(`refused: ${path}: ${code === 'ENOENT' ? 'no such file' : `cannot read (${code ?? String(error)})`}`, EXIT.refused, {
      cause: error,
      hint: 'check the path',
    });
  }
}
