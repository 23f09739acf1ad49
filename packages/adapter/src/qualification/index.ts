/**
 * Qualification records (R3): a recorded pass of the negative suite, bound to exact binaries.
 *
 * - qualification-record.ts  the record's schema (adapter, provider pair, suite, protocol, platform, date, cases)
 * - qualification-store.ts   write once (temp, fsync, link), list and show records under `<home>/qualifications/`
 * - check-qualification.ts   whether this binary (or pair) is qualified, and why not (R3.1, R3.3)
 * - provider-identity.ts     the provider's identity: its executable's digest, combined with the identity files its adapter's manifest declares (R3.1)
 * - identity-file-location.ts  where a declared identity file is, found from the executable's real path as Node's module lookup finds a package
 * - reference-record.ts      keeps a full pass as the repository's reference record (qualification/records/)
 */
export * from './qualification-record.js';
export * from './qualification-store.js';
export * from './check-qualification.js';
export * from './provider-identity.js';
export * from './reference-record.js';
