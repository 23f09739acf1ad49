import { constants } from 'node:fs';
import { access, mkdtemp, rmdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import {
  checkExecutableFile,
  digestFile,
  fixtureAdapterPath,
  readManifest,
  replayAdapterPath,
  sidecarManifestPath,
  type CaseReport,
  type Manifest,
  type SuiteCase,
} from '@statecraft/adapter';
import { suiteHomes } from '@statecraft/environment';
import { runNegativeSuite, type NegativeSuiteAnswer } from '@statecraft/run';
import { writeQualificationRecord, productHomeLayout, refuseDanglingLink } from '@statecraft/records';
import { signingKeyOrRefusal } from './signing-options.js';
import { targetsTheHomeNames } from '@statecraft/run';
import type { z } from 'zod';
import type { QualifyAnswerSchema } from '../json-schemas/index.js';
import type { Answer } from '../answer.js';
import { CliError, IoFailure, UsageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { renderQualifyReport } from './qualify-render.js';
import { driverFor } from './qualify-drivers.js';

export interface QualifyOptions {
  /** The adapter executable; exactly one of `binary` and `fixture`. */
  binary?: string;
  /** Qualify the fixture adapter shipped with the suite. */
  fixture: boolean;
  manifest?: string;
  /** The provider binary the adapter fronts: the pair is what is qualified (R3.1). */
  provider?: string;
  /** The product home, resolved by the caller. */
  home: string;
  /** The evidence boundary every attempt runs under (R12): `bwrap` (default) hides the product home. */
  boundary?: 'bwrap' | 'none';
  onCaseStart?: (entry: SuiteCase) => void;
  onCaseEnd?: (entry: SuiteCase, report: CaseReport) => void;
  /** The operator's interrupt: the suite stops, nothing is recorded (R8.1). */
  signal?: AbortSignal;
  /** The operator's environment, whose HOME and PATH say what the boundary hides and shows (default: this process's). */
  source?: Readonly<Record<string, string | undefined>>;
}

/** The `--json` document (R11: camelCase, fields only ever added). */
export type QualifyValue = z.infer<typeof QualifyAnswerSchema>;

/**
 * A suite whose pass could not be recorded is not run: a product home that cannot be written (a
 * file in its path, a read-only mount) is the machine's fault — exit 4 naming it — not nine failed
 * rows blamed on the adapter. Nothing is created here: a run that records nothing leaves no trace.
 * The nearest directory that exists on the way to the records is the one that must be writable.
 */
async function ensureWritableHome(home: string): Promise<void> {
  const records = join(home, 'qualifications');
  let path = records;
  for (;;) {
    try {
      const info = await stat(path);
      if (!info.isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
      await access(path, constants.W_OK | constants.X_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && dirname(path) !== path) {
        try {
          refuseDanglingLink(path);
        } catch (dangling) {
          throw unwritable(path, records, dangling);
        }
        path = dirname(path);
        continue;
      }
      throw unwritable(path, records, error);
    }
    try {
      // Only trying tells /proc or /sys, which pass the access check, from a directory that takes one.
      await rmdir(await mkdtemp(join(path, '.statecraft-home-probe-')));
      return;
    } catch (error) {
      throw unwritable(path, records, error);
    }
  }
}

function unwritable(path: string, records: string, error: unknown): IoFailure {
  const code = (error as NodeJS.ErrnoException).code;
  return new IoFailure(
    path,
    `the product home cannot be written, so no qualification could be recorded in ${records} (${code ?? (error as Error).message})`,
    error,
  );
}

/**
 * Runs the negative suite against one adapter binary (R4) and, on a full pass, writes a
 * qualification record bound to that exact binary (R3.1). Exit 0 with a record; 1 when any case
 * did not pass (no record); 2 when the suite could not start (no manifest, no executable, a
 * provider that is missing or cannot be identified), before anything runs.
 */
export async function qualify(options: QualifyOptions): Promise<Answer<QualifyValue>> {
  const executable = await chooseExecutable(options);
  const manifestPath = resolve(options.manifest ?? sidecarManifestPath(executable));
  const reading = await readManifest(manifestPath);
  if (reading.kind === 'refused') {
    throw new CliError(`refused: ${reading.message}`, EXIT.refused, {
      hint: `write a manifest beside the executable (${sidecarManifestPath(executable)}) or name one with --manifest <file>`,
    });
  }
  await ensureWritableHome(options.home);
  const signingKey = await signingKeyOrRefusal(options.home, options.source ?? process.env);
  const shippedFixture = await isShippedFixture(executable);
  const driver = await driverFor(reading.manifest, { shippedFixture, ...(options.provider === undefined ? {} : { provider: resolve(options.provider) }) });
  const source = options.source ?? process.env;
  // The homes hidden from every attempt, read as `run` reads them, with what the launches need of them.
  const homes = suiteHomes({
    home: source.HOME,
    path: source.PATH,
    // The suite's own adapters run too (row 7's replay child, row 9's fallback fixture).
    programs: [executable, ...(driver.provider === undefined ? [] : [driver.provider.executable]), fixtureAdapterPath(), replayAdapterPath()],
    productHome: options.home,
  });
  const answer = await runNegativeSuite({
    executable,
    manifest: manifestPath,
    driver,
    boundary:
      options.boundary === 'none'
        ? { kind: 'none' }
        : {
            kind: 'bwrap',
            productHome: options.home,
            homes,
            writablePaths: productHomeLayout(options.home).writablePaths,
            // As for `run`: no managed path may reach a repository the home keeps records for.
            protectedLocations: targetsTheHomeNames(options.home),
          },
    ...(options.onCaseStart === undefined ? {} : { onCaseStart: options.onCaseStart }),
    ...(options.onCaseEnd === undefined ? {} : { onCaseEnd: options.onCaseEnd }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (answer.kind === 'refused') throw new CliError(`refused: ${answer.message}`, EXIT.refused, { hint: refusalHint(answer.stage, reading.manifest) });
  const { report } = answer;
  // A cancelled suite records nothing, whatever its rows showed before the interrupt; one that came
  // while the record was written is too late to cancel it.
  const cancelled = options.signal?.aborted === true;
  const written = report.passed && !cancelled ? await writeQualificationRecord(options.home, report, signingKey) : undefined;
  const record =
    written?.kind === 'written'
      ? { id: written.record.id, path: written.path, ...(written.signature === undefined ? {} : { signature: written.signature }) }
      : null;
  const value: QualifyValue = {
    passed: report.passed && !cancelled,
    suiteVersion: report.suiteVersion,
    adapter: report.adapter,
    provider: report.provider,
    driver: report.driver,
    boundary: report.boundary,
    ...(report.boundary === 'bwrap' ? { hidden: [...homes.hidden, { path: options.home, role: 'product-home' as const }] } : {}),
    cases: report.cases,
    record,
  };
  return { value, exitCode: record === null ? EXIT.finding : EXIT.ok, human: renderQualifyReport };
}

/** What to give instead, for each reason the suite refuses to start. */
function refusalHint(stage: Extract<NegativeSuiteAnswer, { kind: 'refused' }>['stage'], manifest: Manifest): string {
  // The provider is the manifest's `command` prerequisite, as planning reads it; requiresCommands also names the adapter's own interpreter.
  const command = manifest.prerequisites?.find((entry) => entry.kind === 'command')?.command ?? 'the provider';
  if (stage === 'provider') return `give --provider the path of the ${command} executable this adapter fronts (an npm install: node_modules/.bin/${command})`;
  if (stage === 'provider-identity')
    return `give --provider the ${command} of a whole install: the adapter's manifest names the files beside it that identify it (providerIdentityFiles)`;
  return 'check the path and try again';
}

/** Whether these are the shipped fixture's own bytes; an unreadable file is not (the suite then refuses it, naming why). */
async function isShippedFixture(executable: string): Promise<boolean> {
  const [given, shipped] = await Promise.all([digestFile(executable), digestFile(fixtureAdapterPath())].map((digest) => digest.catch(() => undefined)));
  return given !== undefined && given === shipped;
}

async function chooseExecutable(options: QualifyOptions): Promise<string> {
  if (options.fixture && options.binary !== undefined) {
    throw new UsageError('give either an adapter binary or --fixture, not both', 'statecraft qualify --fixture, or statecraft qualify <binary>');
  }
  if (options.fixture) return fixtureAdapterPath();
  if (options.binary === undefined) {
    throw new UsageError(
      'which adapter? give its executable, or --fixture for the bundled fixture',
      'statecraft qualify <binary>  or  statecraft qualify --fixture',
    );
  }
  const executable = resolve(options.binary);
  const check = await checkExecutableFile(executable);
  if (check !== 'usable') {
    throw new CliError(`refused: ${executable}: ${check === 'missing' ? 'no such file' : 'not an executable file'}; nothing was run`, EXIT.refused, {
      hint: check === 'missing' ? 'check the path' : `make it executable (chmod +x ${executable})`,
    });
  }
  return executable;
}
