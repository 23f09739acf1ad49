import { accessSync, constants, statSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { findExecutableOnPath, type Prerequisite } from '@statecraft/adapter';

/**
 * What an adapter declares about the machine it runs on (R10.6): the paths its provider writes
 * and manages, and what must be present before it may claim them. Structurally the part of an
 * adapter manifest this package reads — the manifest schema itself lives in the seam package,
 * which this package uses only for its file-system readings (the PATH search).
 */
export interface AdapterDeclaration {
  name: string;
  version: string;
  /** Paths with `~` for the constructed HOME, e.g. `~/.claude`. */
  managedPaths?: readonly string[] | undefined;
  prerequisites?: readonly PrerequisiteDeclaration[] | undefined;
}

/** The manifest's prerequisite (R10.6), one definition in the seam. */
export type PrerequisiteDeclaration = Prerequisite;

/** Whether a qualification record binds this adapter (and its provider); the caller looks it up (R3). */
export type QualificationState = { kind: 'qualified' } | { kind: 'unqualified'; reason: string };

/** One prerequisite, checked: present or absent, in a sentence either way. */
export interface PrerequisiteCheck {
  prerequisite: PrerequisiteDeclaration;
  state: 'present' | 'absent';
  detail: string;
}

export interface AdapterClaim {
  name: string;
  version: string;
  managedPaths: string[];
  prerequisites: PrerequisiteCheck[];
  /** `claimed`: every prerequisite present. `not-claimed`: the absent ones are named; nothing is written. */
  claim: { kind: 'claimed'; paths: string[] } | { kind: 'not-claimed'; absent: PrerequisiteCheck[]; message: string };
}

export interface ManagedPathCollision {
  /** The path as each adapter declared it (the same, or one inside the other). */
  paths: [string, string];
  adapters: [string, string];
}

/** Expected refusals are values (docs/architecture.md, convention 3). */
export type AdapterPathsPlan =
  { kind: 'refused'; reason: 'managed-path-collision'; collisions: ManagedPathCollision[]; message: string } | { kind: 'planned'; adapters: AdapterClaim[] };

export interface PrerequisiteContext {
  /** The constructed environment the adapter will run with: its PATH, HOME and credential names. */
  environment: Readonly<Record<string, string>>;
  qualification: QualificationState;
}

function isReadableFile(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** `~` is the constructed HOME, never the supervisor's own; without a HOME a `~` path resolves to nothing. */
export function expandHome(path: string, environment: Readonly<Record<string, string>>): string | undefined {
  if (path !== '~' && !path.startsWith('~/')) return path;
  const home = environment.HOME;
  return home === undefined || home === '' ? undefined : join(home, path.slice(1));
}

function checkCommand(command: string, environment: Readonly<Record<string, string>>): PrerequisiteCheck['state'] {
  return findExecutableOnPath(command, environment.PATH) === undefined ? 'absent' : 'present';
}

type CredentialDeclaration = Extract<PrerequisiteDeclaration, { kind: 'credential' }>;

/** The first of a credential's ways the constructed environment holds: a name set (not empty), or a readable file under its HOME. */
export function findCredential(
  prerequisite: CredentialDeclaration,
  environment: Readonly<Record<string, string>>,
): CredentialDeclaration['anyOf'][number] | undefined {
  return prerequisite.anyOf.find((option) =>
    'env' in option ? (environment[option.env] ?? '') !== '' : isReadableFile(expandHome(option.file, environment) ?? ''),
  );
}

/** Checks one prerequisite against the constructed environment; nothing is executed or written. */
export function checkPrerequisite(prerequisite: PrerequisiteDeclaration, context: PrerequisiteContext): PrerequisiteCheck {
  const { environment } = context;
  switch (prerequisite.kind) {
    case 'command': {
      const state = checkCommand(prerequisite.command, environment);
      const where = `the constructed PATH (${environment.PATH ?? 'not set'})`;
      return {
        prerequisite,
        state,
        detail: state === 'present' ? `${prerequisite.command} resolves on ${where}` : `${prerequisite.command} is not on ${where}`,
      };
    }
    case 'qualification': {
      const qualified = context.qualification;
      return qualified.kind === 'qualified'
        ? { prerequisite, state: 'present', detail: 'a qualification record binds this adapter' }
        : { prerequisite, state: 'absent', detail: `no qualification record binds this adapter: ${qualified.reason}` };
    }
    case 'credential': {
      const found = findCredential(prerequisite, environment);
      const options = prerequisite.anyOf.map((option) => ('env' in option ? `$${option.env}` : option.file));
      const none = options.length === 1 ? `${options[0] ?? ''} is absent` : `none of ${options.join(', ')} is present`;
      if (found === undefined) return { prerequisite, state: 'absent', detail: `no credential: ${none} in the constructed environment` };
      return { prerequisite, state: 'present', detail: `credential path: ${'env' in found ? `$${found.env} is set` : `${found.file} exists`}` };
    }
  }
}

/** Compares managed paths literally after `~` normalisation: the same path, or one inside the other. */
function overlaps(left: string, right: string): boolean {
  const a = normalize(left).replace(/\/+$/, '');
  const b = normalize(right).replace(/\/+$/, '');
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/** Two adapters declaring the same managed path (or one inside the other), each pair named once. */
export function findManagedPathCollisions(adapters: readonly AdapterDeclaration[]): ManagedPathCollision[] {
  const collisions: ManagedPathCollision[] = [];
  adapters.forEach((left, index) => {
    for (const right of adapters.slice(index + 1)) {
      for (const leftPath of left.managedPaths ?? []) {
        for (const rightPath of right.managedPaths ?? []) {
          if (overlaps(leftPath, rightPath)) collisions.push({ paths: [leftPath, rightPath], adapters: [left.name, right.name] });
        }
      }
    }
  });
  return collisions;
}

/**
 * Plans the adapters' managed paths (R10.6). Two adapters declaring the same path refuse the plan,
 * naming both and the path. Otherwise each adapter claims its paths only when every prerequisite
 * is present; absent any, it claims nothing and names which one. Nothing is written either way.
 */
export function planAdapterPaths(adapters: ReadonlyArray<{ declaration: AdapterDeclaration; context: PrerequisiteContext }>): AdapterPathsPlan {
  const collisions = findManagedPathCollisions(adapters.map((entry) => entry.declaration));
  if (collisions.length > 0) {
    const message = collisions
      .map((collision) =>
        collision.paths[0] === collision.paths[1]
          ? `adapters ${collision.adapters[0]} and ${collision.adapters[1]} both declare the managed path ${collision.paths[0]}`
          : `adapter ${collision.adapters[0]} declares ${collision.paths[0]} and adapter ${collision.adapters[1]} declares ${collision.paths[1]}, which overlap`,
      )
      .join('; ');
    return { kind: 'refused', reason: 'managed-path-collision', collisions, message: `${message}; refused at plan time, nothing written` };
  }
  return {
    kind: 'planned',
    adapters: adapters.map(({ declaration, context }) => {
      const prerequisites = (declaration.prerequisites ?? []).map((prerequisite) => checkPrerequisite(prerequisite, context));
      const absent = prerequisites.filter((check) => check.state === 'absent');
      const managedPaths = [...(declaration.managedPaths ?? [])];
      const claim: AdapterClaim['claim'] =
        absent.length === 0
          ? { kind: 'claimed', paths: managedPaths }
          : {
              kind: 'not-claimed',
              absent,
              message: `adapter ${declaration.name} ${declaration.version} does not claim ${managedPaths.join(', ') || 'any path'}: ${absent.map((check) => check.detail).join('; ')}`,
            };
      return { name: declaration.name, version: declaration.version, managedPaths, prerequisites, claim };
    }),
  };
}
