/** statecraft's own version, bound into every receipt (R13.6); a test keeps it equal to packages/cli/package.json's. */
export const STATECRAFT_VERSION = '0.1.0';
