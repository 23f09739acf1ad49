/**
 * @statecraft/environment — what a supervised child is given to run with and what it can reach.
 * Depends on @statecraft/adapter only; the product home's layout is @statecraft/records'.
 *
 * Modules:
 * - credential-families.ts    known publication-credential families, refused on construction (R5.2)
 * - construct-environment.ts  selects names from an allowlist, refuses credentials, adds the attempt's bindings (R5.1, R5.5)
 * - project-declaration.ts    the target's .statecraft/environment.json, project.commands (R9.1)
 * - adapter-declarations.ts   adapters' managed paths, prerequisites, collisions (R10.6)
 * - boundary-profile.ts       the protected evidence boundary's profile: hidden, writable, read-only paths; the on/none choice (R12)
 * - operator-git-identity.ts  the operator's git identity carried into the boundary (GIT_CONFIG_GLOBAL); run reads it
 * - homes-to-hide.ts          the homes the boundary hides (the operator's, root's, /home's), and the PATH entries inside them
 * - boundary/adapter-reachable.ts what the agent's processes can still do to the adapter (write its memory unless Yama): residuals (R12)
 * - boundary/boundary-after-probe.ts an established boundary widened after its probe: paths made read-only or hidden, recorded in its profile (R12, R13.3, R13.5)
 * - boundary/boundary-probe.ts the self-test run inside the sandbox before each launch, and the descriptor closer (R12)
 * - boundary/bwrap-boundary.ts the boundary's mechanism on Linux (bubblewrap): establish, wrap the child (R12)
 * - boundary/seccomp-filter.ts the seccomp filter that keeps a launch off the operator's session keyring (R12)
 * - boundary/launch-descriptors.ts the descriptors a launch is handed, and the closer that shuts the rest (R12)
 * - boundary/product-home-views.ts every other mount reaching the product home, from the mount table, hidden and probed too (R12)
 * - boundary/run-quietly.ts  bwrap and the probe run with a fixed PATH, their output whole, a time limit counted once their input is given
 * - containment/probe-containment.ts the PID namespace (unshare) probed once and cached; else the process group (R7.2)
 * - managed-paths/enclosing-git-directory.ts whether a managed path is or lies inside a git directory, up to the HOME or /tmp it lies in; what it holds is not walked (R12)
 * - managed-paths/managed-paths.ts an adapter's managed paths checked against what they must not reach (alone, for `env plan`), then made when absent, so the boundary can bind them writable (R10.6, R12)
 * - managed-paths/resolved-through-links.ts a path with its links resolved as far as it exists
 * - managed-paths/supervisor-programs.ts where each program statecraft runs outside the sandbox really lives, link by link, with its installation (R12)
 * - managed-paths/supervisor-protected-locations.ts what statecraft runs or reads outside the sandbox, whichever target: no managed path may reach it (R12)
 *
 * What this package does not claim: that the child cannot publish or cannot read the operator's
 * files (R5.3); that a name absent from the credential families is harmless — the allowlist, not
 * the family list, is what keeps names out.
 */
export { CREDENTIAL_FAMILIES, credentialFamilyOf } from './credential-families.js';
export { constructEnvironment, type NameSelection, selectPassedNames } from './construct-environment.js';
export { parseProjectDeclaration, PROJECT_DECLARATION_PATH, ProjectDeclarationSchema } from './project-declaration.js';
export {
  type AdapterClaim,
  type AdapterDeclaration,
  checkPrerequisite,
  expandHome,
  findCredential,
  findManagedPathCollisions,
  planAdapterPaths,
  type PrerequisiteContext,
  type QualificationState,
} from './adapter-declarations.js';
export { type BoundaryChoice, buildBoundaryProfile, readBoundaryChoice, readExposedPaths, suiteHomes } from './boundary-profile.js';
export { homesToHide, pathEntriesInside } from './homes-to-hide.js';
export { type GitIdentity, gitIdentityBinding, writeGitIdentityFile } from './operator-git-identity.js';
export {
  chooseContainment,
  CONTAINMENT_OVERRIDE_VARIABLE,
  type ContainmentChoice,
  probeContainment,
  readContainmentOverride,
} from './containment/probe-containment.js';
export { GATE_GO } from './boundary/boundary-probe.js';
export {
  type BoundaryAvailability,
  BoundaryAvailabilitySchema,
  boundaryCommand,
  boundaryContainment,
  type BoundaryLaunch,
  type BoundaryRefusalReason,
  checkBoundaryAvailability,
  establishBoundary,
  type EstablishedBoundary,
} from './boundary/bwrap-boundary.js';
export { adapterReachableResiduals, readPtraceScope } from './boundary/adapter-reachable.js';
export { withHiddenPaths, withReadOnlyPaths } from './boundary/boundary-after-probe.js';
export { findOtherViews, productHomeViewsIn } from './boundary/product-home-views.js';
export { checkManagedPaths, expandManagedPaths, prepareManagedPaths, type ProtectedLocation } from './managed-paths/managed-paths.js';
export { supervisorProtectedLocations } from './managed-paths/supervisor-protected-locations.js';
export { resolvedThroughLinks } from './managed-paths/resolved-through-links.js';
export { openLaunchDescriptors } from './boundary/launch-descriptors.js';
