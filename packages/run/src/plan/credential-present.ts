import type { Manifest } from '@statecraft/adapter';
import { findCredential } from '@statecraft/environment';
import { refused, type RunRefusal } from '../refusal.js';

/** What a refusal for a missing credential carries: the adapter, and each way it declares one may be given. */
export interface MissingCredentialDetail {
  adapter: string;
  /** The names any one of which, set, is a credential. */
  variables: string[];
  /** The files (`~` the HOME the adapter gets) any one of which, readable, is a credential. */
  files: string[];
}

/**
 * The credential the adapter's manifest declares as a prerequisite, looked for in the environment
 * the child will get (as `env plan` looks): absent, the run is refused before anything is spawned
 * or appended, naming what to set. A provider started without one only fails later, in its own words.
 */
export function refuseMissingCredential(manifest: Manifest, environment: Readonly<Record<string, string>>): RunRefusal | undefined {
  for (const prerequisite of manifest.prerequisites ?? []) {
    if (prerequisite.kind !== 'credential' || findCredential(prerequisite, environment) !== undefined) continue;
    const detail: MissingCredentialDetail = {
      adapter: manifest.name,
      variables: prerequisite.anyOf.flatMap((option) => ('env' in option ? [option.env] : [])),
      files: prerequisite.anyOf.flatMap((option) => ('file' in option ? [option.file] : [])),
    };
    const ways = [...detail.variables.map((name) => `set ${name}`), ...detail.files.map((file) => `make ${file} (the provider's login)`)];
    return refused(
      'plan',
      'credential',
      `adapter ${manifest.name} has no credential in the environment it would run with: ${ways.join(', or ')}; or run with --allow-missing-credential to start it without one; refused before spawn, nothing appended`,
      detail,
    );
  }
  return undefined;
}
