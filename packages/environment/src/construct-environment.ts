import { credentialFamilyOf } from './credential-families.js';
import { keepAbsolutePathEntries } from '@statecraft/adapter';
import { residualsFor, type ContainmentKind } from '@statecraft/adapter';
import type { AbsentName, EnvironmentRecord, EnvironmentRefusal, PlacedName } from '@statecraft/adapter';

/** A name an adapter's manifest asks to have carried in (the shape of the manifest's `environment.pass`). */
interface AdapterPassedName {
  name: string;
  secret: boolean;
  why: string;
}

export interface NameSelectionRequest {
  /** The operator's environment. Only the allowlisted names are ever read from it (R5.1). */
  source: Readonly<Record<string, string | undefined>>;
  adapterPass: readonly AdapterPassedName[];
  /** Names the operator asked to pass (`--pass`); their values are treated as secret. */
  operatorPass: readonly string[];
}

/** The allowlist every child gets when the operator has them set. */
const BASELINE: readonly { name: string; why: string }[] = [
  { name: 'PATH', why: 'resolves the programs the adapter and its checks run' },
  { name: 'LANG', why: "the operator's locale, when set" },
  { name: 'TZ', why: "the operator's time zone, when set" },
];

/**
 * Names only the supervisor sets (R5.5): the attempt's bindings, and the attempt tag that finds its
 * escaped descendants (the adapter package's `ATTEMPT_TAG_VARIABLE`; this package imports none).
 * Asking to pass one is refused: the child would get the supervisor's value while the record named
 * the name twice, once as the operator's.
 */
const SUPERVISOR_SET_NAMES: readonly string[] = ['STATECRAFT_RUN_ID', 'STATECRAFT_ATTEMPT', 'STATECRAFT_ATTEMPT_TAG', 'TMPDIR'];

export type NameSelection =
  | { kind: 'refused'; refusals: EnvironmentRefusal[]; message: string }
  | { kind: 'selected'; placed: PlacedName[]; absent: AbsentName[]; values: Map<string, string> };

/**
 * Chooses which of the operator's names the child will receive — the allowlist, the adapter's
 * declared names, the operator's `--pass` names — and refuses any credential family (R5.2) and
 * any name the supervisor sets itself (R5.5).
 * Done at planning, before anything is appended; the attempt's bindings are added at launch.
 */
export function selectPassedNames(request: NameSelectionRequest): NameSelection {
  const asked: { name: string; origin: PlacedName['origin']; secret: boolean; why: string }[] = [
    ...BASELINE.map((entry) => ({ ...entry, origin: 'baseline' as const, secret: false })),
    ...request.adapterPass.map((entry) => ({ ...entry, origin: 'adapter' as const })),
    ...request.operatorPass.map((name) => ({ name, origin: 'operator' as const, secret: true, why: 'asked for by the operator with --pass' })),
  ];
  const refusals: EnvironmentRefusal[] = [];
  const askedBy = (entry: (typeof asked)[number]): string =>
    entry.origin === 'adapter' ? "the adapter's manifest" : entry.origin === 'operator' ? 'the operator (--pass)' : entry.origin;
  for (const entry of asked) {
    if (SUPERVISOR_SET_NAMES.includes(entry.name)) {
      refusals.push({
        name: entry.name,
        origin: entry.origin,
        family: 'supervisor-set',
        message: `${entry.name} requested by ${askedBy(entry)}: refused; the supervisor sets it to bind the child to its attempt, so it is not anyone's to pass — drop it`,
      });
      continue;
    }
    const family = credentialFamilyOf(entry.name);
    if (family === 'none') continue;
    refusals.push({
      name: entry.name,
      origin: entry.origin,
      family,
      message: `${entry.name} (${family} credential family) requested by the ${entry.origin === 'adapter' ? "adapter's manifest" : entry.origin}: refused on construction; publication credentials are never placed in the child`,
    });
  }
  if (refusals.length > 0) {
    return { kind: 'refused', refusals, message: refusals.map((refusal) => refusal.message).join('\n') };
  }
  const placed = new Map<string, PlacedName>();
  const values = new Map<string, string>();
  const absent: AbsentName[] = [];
  for (const entry of asked) {
    if (placed.has(entry.name)) continue;
    const value = request.source[entry.name];
    if (value === undefined) {
      // LANG and TZ are passed only "if set"; any other asked-for name missing is a degradation.
      if (entry.origin !== 'baseline' || entry.name === 'PATH') absent.push({ name: entry.name, origin: entry.origin, why: entry.why });
      continue;
    }
    // PATH goes in with its empty and relative entries left out, and the record names them.
    const path = entry.name === 'PATH' ? keepAbsolutePathEntries(value) : undefined;
    const passed = path === undefined ? value : path.kept;
    placed.set(entry.name, {
      name: entry.name,
      origin: entry.origin,
      value: entry.secret ? 'redacted' : { recorded: passed },
      ...(entry.origin === 'baseline' ? {} : { why: entry.why }),
      ...(path === undefined || path.dropped.length === 0 ? {} : { droppedEntries: path.dropped }),
    });
    values.set(entry.name, passed);
  }
  return { kind: 'selected', placed: [...placed.values()], absent, values };
}

/** The names the supervisor sets to bind the child to its attempt (R5.5). */
export interface AttemptBindings {
  runId: string;
  attempt: number;
  /** A private per-attempt temporary directory, outside the workspace. */
  temporaryDirectory: string;
  /** Further supervisor-set names (e.g. the attempt tag that finds escaped descendants). */
  extra?: readonly { name: string; value: string; why: string }[];
  /** How the attempt's process tree is contained: the fallback has residuals of its own. */
  containment: ContainmentKind;
}

export interface ConstructedEnvironment {
  /** Exactly what the child receives, passed whole with `extendEnv: false`. */
  variables: Record<string, string>;
  record: EnvironmentRecord;
}

/**
 * Builds the child's environment from the selection and the attempt's bindings (R5.1): a new
 * object holding only these names, never the supervisor's environment with names deleted.
 */
export function constructEnvironment(selection: Extract<NameSelection, { kind: 'selected' }>, bindings: AttemptBindings): ConstructedEnvironment {
  const supervisorNames: PlacedName[] = [
    { name: 'STATECRAFT_RUN_ID', origin: 'supervisor', value: { recorded: bindings.runId } },
    { name: 'STATECRAFT_ATTEMPT', origin: 'supervisor', value: { recorded: String(bindings.attempt) } },
    { name: 'TMPDIR', origin: 'supervisor', value: { recorded: bindings.temporaryDirectory } },
    ...(bindings.extra ?? []).map((entry) => ({ name: entry.name, origin: 'supervisor' as const, value: { recorded: entry.value } })),
  ];
  const variables: Record<string, string> = Object.create(null) as Record<string, string>;
  const names: PlacedName[] = [];
  for (const entry of selection.placed) {
    const value = selection.values.get(entry.name);
    if (value === undefined) continue;
    variables[entry.name] = value;
    names.push(entry);
  }
  for (const entry of supervisorNames) {
    if (entry.value === 'redacted') continue;
    variables[entry.name] = entry.value.recorded;
    names.push(entry);
  }
  names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    variables: { ...variables },
    record: {
      state: selection.absent.length > 0 ? 'degraded' : 'applied',
      names,
      absent: selection.absent,
      refusals: [],
      residuals: residualsFor(bindings.containment),
    },
  };
}
