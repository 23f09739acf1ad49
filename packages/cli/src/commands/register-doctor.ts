import type { Command } from 'commander';

/** Registers the `doctor` verb(s) on the program. (Being built.) */
export function registerDoctor(_program: Command): void {}
