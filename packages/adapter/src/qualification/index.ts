/**
 * Qualification records (R3): a recorded pass of the negative suite, bound to exact binaries.
 *
 * - qualification-record.ts  the record's schema (adapter, provider pair, suite, protocol, platform, date, cases)
 * - qualification-store.ts   write once (temp, fsync, link), list and show records under `<home>/qualifications/`
 * - check-qualification.ts   whether this binary (or pair) is qualified, and why not (R3.1, R3.3)
 * - reference-record.ts      keeps a full pass as the repository's reference record (qualification/records/)
 */
export * from './qualification-record.js';
export * from './qualification-store.js';
export * from './check-qualification.js';
export * from './reference-record.js';
