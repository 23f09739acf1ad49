import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  fixtureAdapterPath,
  fixtureDriver,
  sidecarManifestPath,
  type CaseReport,
  type DriverScenario,
  type SuiteDriver,
  type SuiteReport,
  type SuiteRow,
} from '@statecraft/adapter';
import { runAdapterOnce, runNegativeSuite, type RunAdapterOnceAnswer, type RunAdapterOnceOptions, type RunNegativeSuiteOptions } from '@statecraft/run';
import { scratchDirectories } from '../../../test/fixtures/scratch-directories.js';

// Removed when the importing test file is done.
const scratch = scratchDirectories();

export const freshDirectory = (prefix = 'statecraft-suite-test') => scratch.makeNow(prefix);

/** The fixture's own manifest, parsed. */
export function fixtureManifest(): Record<string, unknown> {
  return JSON.parse(readFileSync(sidecarManifestPath(fixtureAdapterPath()), 'utf8')) as Record<string, unknown>;
}

/** A manifest file beside nothing: the fixture's manifest with some fields changed. */
export function writeManifest(changes: Record<string, unknown>): string {
  const path = join(freshDirectory('statecraft-manifest'), 'manifest.json');
  writeFileSync(path, JSON.stringify({ ...fixtureManifest(), ...changes }));
  return path;
}

/** Runs the chosen rows of the suite against the fixture adapter (or as told) and returns the report. */
export async function runRows(rows: readonly SuiteRow[], options: Partial<RunNegativeSuiteOptions> = {}): Promise<SuiteReport> {
  const answer = await runNegativeSuite({ executable: fixtureAdapterPath(), driver: fixtureDriver, rows, ...options });
  if (answer.kind !== 'ran') throw new Error(`the suite refused to start: ${answer.message}`);
  return answer.report;
}

export function onlyCase(report: SuiteReport): CaseReport {
  const [only] = report.cases;
  if (only === undefined || report.cases.length !== 1) throw new Error(`expected one case, got ${report.cases.length}`);
  return only;
}

/**
 * The fixture driver with some scenarios answered by the wrong behaviour: what an adapter that
 * lacks a guarantee would do. A row that still passed against it would be a row that cannot fail.
 */
export function misbehavingDriver(substitutes: Partial<Record<DriverScenario, string>>): SuiteDriver {
  return {
    name: 'fixture-misbehaving',
    provocation(scenario) {
      const base = fixtureDriver.provocation(scenario);
      if (base === 'not-applicable') return base;
      const substitute = substitutes[scenario];
      return substitute === undefined ? base : { ...base, prompt: `scenario: ${substitute}\n` };
    },
  };
}

/** One attempt of the fixture adapter through the real supervisor, with test defaults. */
export async function runFixtureOnce(options: Partial<RunAdapterOnceOptions> & { prompt: string }): Promise<RunAdapterOnceAnswer> {
  const scratch = freshDirectory();
  return runAdapterOnce({
    executable: fixtureAdapterPath(),
    workspace: scratch,
    baseRevision: 'test',
    attempt: { runId: 'test-run', number: 1 },
    required: [],
    preferred: [],
    deadlineMs: 60_000,
    environment: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch },
    attemptDir: join(scratch, '.attempt'),
    ...options,
  });
}

export function ran(answer: RunAdapterOnceAnswer): Extract<RunAdapterOnceAnswer, { kind: 'ran' }> {
  if (answer.kind !== 'ran') throw new Error(`expected the attempt to run, it was refused at ${answer.stage}: ${answer.message}`);
  return answer;
}
