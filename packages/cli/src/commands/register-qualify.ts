import type { Command } from 'commander';

/** Registers the `qualify` verb(s) on the program. (Being built.) */
export function registerQualify(_program: Command): void {}
