import type { ProtectedLocation } from '@statecraft/environment';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { makeDirectories } from '@statecraft/adapter';
import { digestFile } from '@statecraft/adapter';
import { checkExecutableFile, EXECUTABLE_CHECK_WORDS } from '@statecraft/adapter';
import type { ProviderIdentity } from '@statecraft/adapter';
import type { Manifest } from '@statecraft/adapter';
import { identifyProvider, type ProviderIdentification } from '@statecraft/adapter';
import { PROTOCOL_VERSION } from '@statecraft/adapter';
import { readManifest, sidecarManifestPath } from '@statecraft/adapter';
import { changedBoundFiles, type BoundFile } from './bound-files.js';
import { CASE_CHECKS } from './case-checks.js';
import { SUITE_CASES, SUITE_VERSION, type SuiteCase, type SuiteRow } from '@statecraft/adapter';
import type { ContainmentMechanism } from '@statecraft/adapter';
import type { CaseVerdict } from './cases/verdict.js';
import type { SuiteDriver } from '@statecraft/adapter';
import { createSuiteContext, suiteTemporaryDirectory, type SuiteContext, type SuiteHomes } from './suite-context.js';
import type { CaseReport, QualifiedProvider, SuiteReport } from '@statecraft/adapter';
import { SuiteEnvironmentFailure } from './suite-environment-failure.js';

export interface RunNegativeSuiteOptions {
  /** The adapter executable under test. */
  executable: string;
  /** Its manifest; default the sidecar `<executable>.manifest.json`. */
  manifest?: string;
  /** How to provoke behaviour from this adapter (`fixtureDriver` for the fixture). */
  driver: SuiteDriver;
  /** Where workspaces, requests and streams go; default a private temporary directory, removed after. */
  scratchDir?: string;
  onCaseStart?: (entry: SuiteCase) => void;
  onCaseEnd?: (entry: SuiteCase, report: CaseReport) => void;
  /** Run only these rows (a partial run never counts as a pass). Default: every row. */
  rows?: readonly SuiteRow[];
  /** Force a containment mechanism for every attempt; default `auto` (the supervisor probes). */
  containment?: 'auto' | Exclude<ContainmentMechanism, 'bwrap'>;
  /**
   * The evidence boundary (R12), on by default as for `run`: `productHome` is hidden from every
   * attempt (default: a stand-in inside the scratch directory). `none` runs without it; the report
   * says which. `writablePaths`: where the product home remembers the managed paths bound writable
   * (writable-paths-remembered.ts); those outside the suite's scratch directory are remembered there.
   * `protectedLocations`: what the managed paths must not reach besides the suite's own (every
   * repository the product home names, as for `run`: launch-boundary.ts). `homes`: the homes hidden
   * as `run` hides them, read by the caller (suite-context.ts `SuiteHomes`); none when not given.
   */
  boundary?:
    { kind: 'bwrap'; productHome?: string; homes?: SuiteHomes; writablePaths?: string; protectedLocations?: readonly ProtectedLocation[] } | { kind: 'none' };
  /**
   * The operator's interrupt (Ctrl-C, SIGTERM): the attempt running is cancelled, the row it cut
   * short and every later one reported `not-run`, and the scratch directory removed as always. A
   * cancelled suite never passes.
   */
  signal?: AbortSignal;
}

export type NegativeSuiteAnswer =
  | { kind: 'refused'; stage: 'manifest' | 'executable' | 'provider' | 'provider-identity'; path: string; message: string }
  | { kind: 'ran'; report: SuiteReport };

/**
 * Runs the negative suite (R4) against any adapter binary: every row of the table, in order,
 * through the real supervisor. The answer binds the adapter's name, version and content digest
 * and its manifest's digest, and the provider's identity when the driver names one (R3.1). A
 * refusal to start (no manifest, no executable, no provider executable, a provider that cannot
 * be identified) is a value, not an exception.
 */
export async function runNegativeSuite(options: RunNegativeSuiteOptions): Promise<NegativeSuiteAnswer> {
  const executable = resolve(options.executable);
  const manifestPath = resolve(options.manifest ?? sidecarManifestPath(executable));
  const reading = await readManifest(manifestPath);
  if (reading.kind === 'refused') return { kind: 'refused', stage: 'manifest', path: manifestPath, message: reading.message };
  let digest: string;
  try {
    digest = await digestFile(executable);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return { kind: 'refused', stage: 'executable', path: executable, message: `${executable}: cannot read the adapter executable (${code})` };
  }
  const provider = await identifySuiteProvider(options.driver, reading.manifest);
  if (provider.kind === 'refused') return provider;
  const scratchDir = options.scratchDir ?? (await mkdtemp(join(tmpdir(), 'statecraft-suite-')));
  const startedAt = new Date().toISOString();
  try {
    await mkdir(join(scratchDir, 'workspace'), { recursive: true });
    await mkdir(join(scratchDir, 'home'), { recursive: true });
    await mkdir(suiteTemporaryDirectory(scratchDir), { recursive: true });
    const boundary: SuiteContext['boundary'] =
      options.boundary?.kind === 'none'
        ? { kind: 'none' }
        : {
            kind: 'bwrap',
            productHome: await hiddenHome(options.boundary?.productHome, scratchDir),
            ...(options.boundary?.homes === undefined ? {} : { homes: options.boundary.homes }),
            ...(options.boundary?.writablePaths === undefined ? {} : { writablePaths: options.boundary.writablePaths }),
            ...(options.boundary?.protectedLocations === undefined ? {} : { protectedLocations: options.boundary.protectedLocations }),
          };
    const context = createSuiteContext({
      executable,
      manifestPath,
      manifest: reading.manifest,
      driver: options.driver,
      scratchDir,
      workspace: join(scratchDir, 'workspace'),
      boundary,
      ...(options.containment === undefined ? {} : { containment: options.containment }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    // The manifest's bytes, not its canonical digest: any change while the suite runs (each case
    // reads the file again) fails the row it happened in.
    const bound: BoundFile[] = [
      { role: 'adapter executable', path: executable, digest },
      { role: 'adapter manifest', path: manifestPath, digest: await digestFile(manifestPath) },
    ];
    if (provider.kind === 'identified') bound.push(...providerBoundFiles(provider));
    const cases = await runCases(context, options, bound);
    const report: SuiteReport = {
      // A partial run is never a pass: qualification needs every row of this suite version.
      passed: cases.length === SUITE_CASES.length && cases.every((entry) => entry.status === 'pass'),
      suiteVersion: SUITE_VERSION,
      protocol: PROTOCOL_VERSION,
      adapter: { name: reading.manifest.name, version: reading.manifest.version, digest, manifestDigest: reading.digest },
      provider: provider.kind === 'none' ? 'none' : qualifiedProvider(provider, context.observedProvider()),
      driver: options.driver.name,
      boundary: boundary.kind,
      cases,
      startedAt,
      endedAt: new Date().toISOString(),
    };
    return { kind: 'ran', report };
  } finally {
    if (options.scratchDir === undefined) await rm(scratchDir, { recursive: true, force: true });
  }
}

/**
 * The product home the suite hides from every attempt: the operator's, when it is (or can be made)
 * a directory; otherwise — a home that is a file, on a read-only mount — a stand-in in the scratch
 * directory, so the suite still runs and the record's write reports the home's fault (exit 4).
 */
async function hiddenHome(productHome: string | undefined, scratchDir: string): Promise<string> {
  if (productHome !== undefined) {
    try {
      makeDirectories(productHome, 0o700);
      return productHome;
    } catch {
      // Not a directory we can use: the stand-in below.
    }
  }
  const standIn = join(scratchDir, 'product-home');
  await mkdir(standIn, { recursive: true, mode: 0o700 });
  return standIn;
}

const CANCELLED = 'the operator cancelled the suite';

/**
 * Runs the rows in order. After each, the bound files are digested again: a change fails the row
 * it happened in, naming it, and the later rows are not run — nothing they showed would be about
 * the bytes the record binds (R3.1).
 */
async function runCases(context: SuiteContext, options: RunNegativeSuiteOptions, bound: readonly BoundFile[]): Promise<CaseReport[]> {
  const reports: CaseReport[] = [];
  let stoppedBy: string | undefined;
  await options.driver.setUp?.();
  try {
    for (const entry of SUITE_CASES.filter((candidate) => options.rows?.includes(candidate.row) ?? true)) {
      options.onCaseStart?.(entry);
      let report: CaseReport;
      if (options.signal?.aborted === true) stoppedBy ??= CANCELLED;
      if (stoppedBy !== undefined) {
        report = { row: entry.row, title: entry.title, status: 'not-run', evidence: 'none', detail: `not run: ${stoppedBy}` };
      } else {
        const verdict = await runOneCase(context, entry.row);
        // A row the interrupt cut short showed nothing about the adapter: not run, like the rows after it.
        if (options.signal?.aborted === true) {
          stoppedBy = CANCELLED;
          report = { row: entry.row, title: entry.title, status: 'not-run', evidence: 'none', detail: `not run to its end: ${CANCELLED}` };
          reports.push(report);
          options.onCaseEnd?.(entry, report);
          continue;
        }
        const changes = await changedBoundFiles(bound);
        report = { row: entry.row, title: entry.title, ...verdict };
        if (changes.length > 0) {
          stoppedBy = `the suite stopped after row ${entry.row}, where a file the qualification binds changed (see row ${entry.row})`;
          report = {
            ...report,
            status: 'fail',
            detail: `${changes.join('; ')}. It changed while this row ran, so no verdict can bind the bytes that ran the suite. The row's own finding: ${verdict.status}: ${verdict.detail}`,
          };
        }
      }
      reports.push(report);
      options.onCaseEnd?.(entry, report);
    }
  } finally {
    await options.driver.tearDown?.();
  }
  return reports;
}

/** An unexpected exception fails its case, with the message kept; the other rows still run. The machine's own failure ends the suite. */
async function runOneCase(context: SuiteContext, row: SuiteCase['row']): Promise<CaseVerdict> {
  const check = CASE_CHECKS[row as keyof typeof CASE_CHECKS];
  try {
    return await check(context);
  } catch (error) {
    if (error instanceof SuiteEnvironmentFailure) throw error;
    return { status: 'fail', evidence: 'none', detail: `the case could not be completed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

type SuiteProvider =
  { kind: 'none' } | { kind: 'identified'; executable: string; executableDigest: string; identity: Extract<ProviderIdentification, { kind: 'identified' }> };

/**
 * The provider half of the pair, identified before any case runs (R3.1): its executable's digest
 * and each identity file its adapter's manifest declares. A provider executable that is missing or
 * cannot be executed, like one that cannot be identified, is refused here, before anything runs:
 * no case could measure it, and no pass could be bound to it.
 */
async function identifySuiteProvider(driver: SuiteDriver, manifest: Manifest): Promise<SuiteProvider | Extract<NegativeSuiteAnswer, { kind: 'refused' }>> {
  if (driver.provider === undefined) return { kind: 'none' };
  const { executable } = driver.provider;
  const usable = await checkExecutableFile(executable);
  if (usable !== 'usable') {
    return {
      kind: 'refused',
      stage: 'provider',
      path: executable,
      message: `${executable}: the provider executable is ${EXECUTABLE_CHECK_WORDS[usable]}; nothing was run`,
    };
  }
  const executableDigest = await digestFile(executable);
  const identity = await identifyProvider({ executable, executableDigest, declared: manifest.providerIdentityFiles });
  if (identity.kind === 'unidentifiable')
    return { kind: 'refused', stage: 'provider-identity', path: executable, message: `${identity.message}; nothing was run` };
  return { kind: 'identified', executable, executableDigest, identity };
}

/** The provider's files the qualification binds, taken again between rows like the adapter's. */
function providerBoundFiles(provider: Extract<SuiteProvider, { kind: 'identified' }>): BoundFile[] {
  return [
    { role: 'provider executable', path: provider.executable, digest: provider.executableDigest },
    ...provider.identity.files.map((file): BoundFile => ({ role: 'provider identity file', path: file.path, digest: file.digest })),
  ];
}

/**
 * The provider as the record binds it: name and version as the adapter reported them, the
 * identity computed here from the bytes themselves — the adapter's word is not taken for them (R3.1).
 */
function qualifiedProvider(provider: Extract<SuiteProvider, { kind: 'identified' }>, reported: ProviderIdentity | undefined): QualifiedProvider {
  return {
    name: reported?.name ?? basename(provider.executable),
    version: reported?.version ?? 'not-recorded',
    digest: provider.identity.digest,
    identityFiles: provider.identity.files.map(({ file, digest }) => ({ file, digest })),
  };
}
