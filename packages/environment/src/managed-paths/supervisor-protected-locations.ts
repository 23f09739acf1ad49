import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProtectedLocation } from './managed-paths.js';
import { resolvedThroughLinks } from './resolved-through-links.js';
import { supervisorProgramLocations } from './supervisor-programs.js';

/** Where a managed path may lie outside HOME (managed-paths.ts): a program's prefix that holds it is protected by its installation directories. */
const SHARED_TEMPORARY = '/tmp';

/** What git reads as the operator's own configuration: a filter or a hook path there is a command statecraft's git runs. */
const GIT_CONFIGURATION = "git's configuration, which statecraft's own git reads";

/**
 * Directories in a HOME that are never a provider's configuration and that programs outside the
 * sandbox trust or run: keys, and what a login session starts. Not every such file (none can be):
 * the ones an adapter has no business declaring.
 */
const HOME_ENTRIES_NOT_A_PROVIDERS: readonly (readonly [string, string])[] = [
  ['.ssh', "the operator's SSH keys and configuration"],
  ['.gnupg', "the operator's GnuPG keys"],
  ['.local/bin', "the operator's own programs"],
  ['.config/systemd', "the operator's systemd units, started as the operator"],
  ['.config/autostart', 'what a desktop session starts'],
  ['.config/environment.d', "the operator's session environment"],
];

/**
 * What statecraft itself runs or reads outside the sandbox, as the operator, whichever target: a
 * managed path over one of these runs the agent's code outside the boundary. The directories on
 * PATH (where statecraft finds git and bwrap, and the child its programs) in the operator's and
 * the constructed environment, and where each program statecraft runs outside the sandbox really
 * lives, link by link, with its installation (supervisor-programs.ts); git's own configuration and
 * a few of the HOME's entries that are never a provider's in both HOMEs; node's global packages;
 * statecraft's own package and every `node_modules` its modules are looked up in.
 */
export function supervisorProtectedLocations(environments: readonly Readonly<Record<string, string | undefined>>[]): ProtectedLocation[] {
  const locations: ProtectedLocation[] = [];
  for (const environment of environments) {
    for (const entry of (environment.PATH ?? '').split(':')) {
      if (isAbsolute(entry)) locations.push({ path: entry, what: 'a directory on PATH, where statecraft finds git and bwrap' });
    }
    const home = environment.HOME;
    if (home !== undefined && isAbsolute(home)) {
      locations.push({ path: join(home, '.gitconfig'), what: GIT_CONFIGURATION }, { path: join(home, '.config', 'git'), what: GIT_CONFIGURATION });
      for (const [entry, what] of HOME_ENTRIES_NOT_A_PROVIDERS) locations.push({ path: join(home, entry), what });
    }
    const xdg = environment.XDG_CONFIG_HOME;
    if (xdg !== undefined && isAbsolute(xdg)) locations.push({ path: join(xdg, 'git'), what: GIT_CONFIGURATION });
  }
  const homes = environments.flatMap(({ HOME }) => (HOME !== undefined && isAbsolute(HOME) ? [HOME] : []));
  locations.push(
    ...supervisorProgramLocations(
      environments.map(({ PATH }) => PATH),
      [...homes, SHARED_TEMPORARY],
    ),
  );
  // Node's global packages, which its installation (protected with the programs) need not hold.
  const node = resolvedThroughLinks(process.execPath);
  locations.push({ path: join(dirname(dirname(node)), 'lib', 'node_modules'), what: "node's global packages" });
  // This module's file: bundled, the CLI's bundle (whose `import.meta.url` is its own), so the
  // package found is the one the running statecraft was loaded from, wherever it is installed.
  const program = statecraftPackageRoot();
  if (program !== undefined) {
    locations.push({ path: program, what: "statecraft's own program" });
    for (let directory = program; ; directory = dirname(directory)) {
      locations.push({ path: join(directory, 'node_modules'), what: 'the packages statecraft loads' });
      if (dirname(directory) === directory) break;
    }
  }
  return locations;
}

/** The nearest directory holding a package.json above this module's file, or undefined. */
function statecraftPackageRoot(): string | undefined {
  let directory = dirname(resolvedThroughLinks(fileURLToPath(import.meta.url)));
  for (;;) {
    if (existsSync(join(directory, 'package.json'))) return directory;
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}
