/**
 * statecraft's own version, as package.json gives it: bound into every receipt (R13.6), and what
 * commander prints for `--version` when it is not the only word (bin/statecraft answers a bare
 * `--version` from package.json without loading the bundle). Tests keep the two equal.
 */
export const STATECRAFT_VERSION = '0.1.0';
