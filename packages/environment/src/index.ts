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
 *
 * What this package does not claim: that the child cannot publish or cannot read the operator's
 * files (R5.3); that a name absent from the credential families is harmless — the allowlist, not
 * the family list, is what keeps names out.
 */
export * from './credential-families.js';
export * from './construct-environment.js';
export * from './project-declaration.js';
export * from './adapter-declarations.js';
export * from './boundary-profile.js';
export { homesToHide, pathEntriesInside, programHoldersInside, type HiddenHome } from './homes-to-hide.js';
export * from './operator-git-identity.js';
