/**
 * statecraft's version, as package.json gives it: commander prints it for `--version` when it is
 * not the only word (bin/statecraft.cjs answers a bare `--version` from package.json without
 * loading the bundle). test/cli-surface.test.ts checks the two agree.
 */
export const STATECRAFT_VERSION = '0.1.0';
