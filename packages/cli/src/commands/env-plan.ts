import { lstat, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { checkBoundaryAvailability, checkManagedPaths } from '@statecraft/environment';
import { digestFile, findExecutableOnPath, identifyProvider, readManifest, sidecarManifestPath } from '@statecraft/adapter';
import { checkQualification, type TrustedKey } from '@statecraft/records';
import type { Manifest } from '@statecraft/adapter';
import {
  PROJECT_DECLARATION_PATH,
  expandHome,
  homesToHide,
  parseProjectDeclaration,
  pathEntriesInside,
  planAdapterPaths,
  selectPassedNames,
} from '@statecraft/environment';
import type { AdapterClaim, QualificationState } from '@statecraft/environment';
import type { z } from 'zod';
import type { EnvPlanAnswerSchema, PlannedAdapterSchema } from '../json-schemas/index.js';
import { managedPathsMustNotReach, targetInsideManagedPath, targetInWritablePlace } from '@statecraft/run';
import { resolveTarget, type ResolvedTarget } from '@statecraft/records';
import type { Answer } from '../answer.js';
import { CliError, IoFailure, UsageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { renderEnvPlan } from './env-plan-render.js';
import { trustedKeysOrRefusal } from './signing-options.js';
import { KNOWN_ADAPTER_NAMES, resolveAdapterArgument } from './run-adapters.js';

export interface EnvPlanOptions {
  home: string;
  target: string;
  /** Adapter names or paths; none: every adapter the CLI knows by name. */
  adapters: readonly string[];
  /** The provider binary of the pair, for the qualification prerequisite (R10.7). */
  provider?: string;
  /** The operator's environment: only allowlisted names are read from it (R5.1). */
  source: Readonly<Record<string, string | undefined>>;
  /** Public keys (`--trust`; with STATECRAFT_TRUSTED_KEYS): a qualification record counts only when one of them signed it, as `run` counts it. */
  trust: readonly string[];
}

/**
 * One adapter's claim (environment's AdapterClaim) with its executable, the provider of the pair
 * (`--provider`, else its first command prerequisite on the constructed PATH), its qualification,
 * environment and allowance (R9.1).
 */
export type PlannedAdapter = z.infer<typeof PlannedAdapterSchema>;

/** `refused` is present only when the plan is refused (exit 2); planning writes nothing (R10.6). */
export type EnvPlanValue = z.infer<typeof EnvPlanAnswerSchema>;

async function readDeclaration(target: string): Promise<EnvPlanValue['declaration']> {
  const path = join(target, PROJECT_DECLARATION_PATH);
  const hint = { hint: `make ${PROJECT_DECLARATION_PATH} a regular file in the target, or remove it` };
  // As `run` reads it: only a missing file is no declaration; a directory or a link (which could
  // point anywhere) is refused, so the plan never looks fine where the run would be refused.
  const info = await lstat(path).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : error));
  if (info === undefined) return 'none';
  if (info instanceof Error) throw new IoFailure(path, `cannot read the project declaration (${info.code ?? info.message})`, info);
  if (!info.isFile()) throw new CliError(`refused: ${path}: the project declaration is not a regular file`, EXIT.refused, hint);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new IoFailure(path, `cannot read the project declaration (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, error);
  }
  const parsed = parseProjectDeclaration(text, path);
  if (parsed.kind === 'refused') throw new CliError(`refused: ${parsed.message}`, EXIT.refused, { hint: `fix ${PROJECT_DECLARATION_PATH} in the target` });
  return { path, commands: parsed.commands };
}

async function loadAdapter(given: string): Promise<{ executable: string; manifest: Manifest; manifestFile: { path: string; digest: string } }> {
  const resolved = await resolveAdapterArgument(given);
  if (resolved.kind === 'unknown') throw new UsageError(`no adapter is named ${given}`, `known names: ${resolved.known.join(', ')}; or give a path`);
  const executable = resolve(resolved.executable);
  const reading = await readManifest(resolve(resolved.manifest ?? sidecarManifestPath(executable)));
  if (reading.kind === 'refused')
    throw new CliError(`refused: ${reading.message}`, EXIT.refused, { hint: 'give the adapter executable whose manifest sits beside it' });
  return { executable, manifest: reading.manifest, manifestFile: { path: reading.path, digest: reading.digest } };
}

/** The environment the adapter's child would be given: names and values read from the allowlist only. */
function plannedEnvironment(manifest: Manifest, source: EnvPlanOptions['source']) {
  const selection = selectPassedNames({ source, adapterPass: manifest.environment?.pass ?? [], operatorPass: [] });
  if (selection.kind === 'refused') throw new CliError(`refused: ${selection.message}`, EXIT.refused);
  return { variables: Object.fromEntries(selection.values), names: selection.placed, absent: selection.absent };
}

async function qualificationOf(
  home: string,
  { executable, manifest, manifestFile }: Awaited<ReturnType<typeof loadAdapter>>,
  provider: PlannedAdapter['provider'],
  trustedKeys: readonly TrustedKey[],
): Promise<PlannedAdapter['qualification']> {
  const adapter = { name: manifest.name, version: manifest.version, digest: await digestFile(executable) };
  const verdict = await checkQualification({
    home,
    adapter,
    manifest: manifestFile,
    ...(provider === 'none' ? {} : { provider: provider.identity }),
    trustedKeys,
  });
  return { verdict: verdict.verdict, reason: verdict.reason };
}

/** Its managed paths judged as a launch inside the evidence boundary judges them (R12), making nothing. */
function managedPathCheck(
  manifest: Manifest,
  environment: Record<string, string>,
  target: ResolvedTarget,
  options: EnvPlanOptions,
): PlannedAdapter['managedPathCheck'] {
  const protectedLocations = managedPathsMustNotReach({ productHome: options.home, target, source: options.source, environment });
  const checked = checkManagedPaths(manifest.managedPaths ?? [], { home: environment.HOME, protectedLocations });
  return checked.kind === 'bindable' ? { verdict: 'bindable' } : { verdict: 'refused', path: checked.path, message: checked.message };
}

/** The provider of the pair: its bytes' digest and its identity under the adapter's manifest (R3.1). */
async function plannedProvider(executable: string, manifest: Manifest): Promise<PlannedAdapter['provider']> {
  const digest = await digestFile(executable);
  return { executable, digest, identity: await identifyProvider({ executable, executableDigest: digest, declared: manifest.providerIdentityFiles }) };
}

/** What one adapter's prerequisites are checked against: its child's environment, its provider and its qualification. */
async function prerequisitesContext(
  loaded: Awaited<ReturnType<typeof loadAdapter>>,
  target: ResolvedTarget,
  options: EnvPlanOptions,
  trustedKeys: readonly TrustedKey[],
) {
  const { executable, manifest } = loaded;
  const environment = plannedEnvironment(manifest, options.source);
  const firstCommand = manifest.prerequisites?.find((entry) => entry.kind === 'command');
  const providerPath =
    options.provider !== undefined
      ? resolve(options.provider)
      : firstCommand === undefined
        ? undefined
        : findExecutableOnPath(firstCommand.command, environment.variables.PATH);
  const provider = providerPath === undefined ? 'none' : await plannedProvider(providerPath, manifest);
  const qualification = await qualificationOf(options.home, loaded, provider, trustedKeys);
  const state: QualificationState = qualification.verdict === 'qualified' ? { kind: 'qualified' } : { kind: 'unqualified', reason: qualification.reason };
  return {
    executable,
    manifest,
    environment,
    provider,
    qualification,
    managedPathCheck: managedPathCheck(manifest, environment.variables, target, options),
    context: { environment: environment.variables, qualification: state },
  };
}

/** One adapter's claim as the plan shows it, with what it was checked against and the commands it may run. */
function plannedAdapter(claim: AdapterClaim, entry: Awaited<ReturnType<typeof prerequisitesContext>> | undefined, commands: readonly string[]): PlannedAdapter {
  if (entry === undefined) throw new Error('unreachable: a claim without its adapter');
  return {
    ...claim,
    executable: entry.executable,
    provider: entry.provider,
    qualification: entry.qualification,
    environment: { names: entry.environment.names, absent: entry.environment.absent },
    exposed: (entry.manifest.readablePaths ?? [])
      .map((path) => expandHome(path, entry.environment.variables))
      .filter((path): path is string => path !== undefined && isAbsolute(path) && existsSync(path))
      .map((path) => ({ path, role: 'adapter-exposed' as const })),
    allowance: [...new Set([...entry.manifest.requiresCommands, ...commands])],
    managedPathCheck: entry.managedPathCheck,
  };
}

/** The homes the boundary would hide, as a launch builds them (boundary-profile.ts), and the PATH's tools it shows of them. */
function plannedHomes(source: EnvPlanOptions['source']): EnvPlanValue['homes'] {
  const hidden = homesToHide(source.HOME);
  const exposed = pathEntriesInside(hidden, source.PATH).map((path) => ({ path, role: 'path-entry' as const }));
  return { hidden, exposed };
}

/**
 * `statecraft env plan <target>`: each adapter's managed paths and prerequisites against the
 * environment its child would be given (R10.6, R5.4). Two adapters declaring one path refuse the
 * plan (exit 2) naming both and the path; an adapter missing a prerequisite claims nothing and
 * names which (exit 1); a managed path a launch inside the evidence boundary would refuse (R12)
 * refuses the plan too (exit 2), naming it. No adapter or provider is executed and nothing is written; bwrap runs
 * `/bin/true` once to say whether the evidence boundary can be made here (R12).
 */
export async function envPlan(options: EnvPlanOptions): Promise<Answer<EnvPlanValue>> {
  // The same target `run` would accept, resolved the same way: a git repository's top level.
  const resolution = await resolveTarget(options.target);
  if (resolution.kind === 'refused')
    throw new CliError(`refused: ${resolution.message}`, EXIT.refused, { hint: 'name the target repository, as `statecraft run` would be given it' });
  const target = resolution.target.path;
  const trustedKeys = await trustedKeysOrRefusal(options.trust, options.source);
  // Where run would refuse the target whatever adapter it used: an agent's workspace, a path an earlier boundary bound writable.
  const inWritablePlace = await targetInWritablePlace(resolution.target, options.home);
  if (inWritablePlace !== undefined)
    throw new CliError(`refused: ${inWritablePlace.message}`, EXIT.refused, { hint: 'move the repository out of it, as `statecraft run` would be refused' });
  const declaration = await readDeclaration(target);
  const names = options.adapters.length > 0 ? options.adapters : KNOWN_ADAPTER_NAMES;
  const boundary = checkBoundaryAvailability(options.source.PATH);
  const loaded = await Promise.all(names.map(loadAdapter));

  const planned = await Promise.all(loaded.map((adapter) => prerequisitesContext(adapter, resolution.target, options, trustedKeys)));
  const plan = planAdapterPaths(planned.map((entry) => ({ declaration: entry.manifest, context: entry.context })));
  const commands = declaration === 'none' ? [] : declaration.commands;
  const adapters = plan.kind === 'refused' ? [] : plan.adapters.map((claim, index) => plannedAdapter(claim, planned[index], commands));
  const unclaimed = adapters.filter((adapter) => adapter.claim.kind === 'not-claimed');
  // A managed path a launch would refuse refuses the plan as `run` would be refused (exit 2), naming it.
  const unbindable = adapters.flatMap((adapter) =>
    adapter.managedPathCheck.verdict === 'refused' ? [`${adapter.name}: ${adapter.managedPathCheck.message}`] : [],
  );
  // And a target inside a path an adapter manages, which run refuses for that adapter.
  unbindable.push(
    ...planned.flatMap((entry) => {
      const over = targetInsideManagedPath(resolution.target, entry.manifest.managedPaths ?? [], entry.environment.variables.HOME);
      return over === undefined ? [] : [`${entry.manifest.name}: ${over}`];
    }),
  );
  const refusal = plan.kind === 'refused' ? plan.message : unbindable.length > 0 ? unbindable.join('; ') : undefined;
  const value: EnvPlanValue = {
    target,
    declaration,
    verdict: refusal !== undefined ? 'refused' : unclaimed.length > 0 ? 'not-claimed' : 'claimed',
    adapters,
    collisions: plan.kind === 'refused' ? plan.collisions : [],
    message:
      refusal ??
      (unclaimed.map((adapter) => (adapter.claim.kind === 'not-claimed' ? adapter.claim.message : '')).join('; ') ||
        'every adapter may claim its managed paths'),
    ...(refusal !== undefined ? { refused: { message: refusal, collisions: plan.kind === 'refused' ? plan.collisions : [] } } : {}),
    wrote: 'nothing',
    boundary: await boundary,
    homes: plannedHomes(options.source),
  };
  const exitCode = value.verdict === 'refused' ? EXIT.refused : value.verdict === 'not-claimed' ? EXIT.finding : EXIT.ok;
  return { value, exitCode, human: renderEnvPlan };
}
