import type { Command } from 'commander';

/** Registers the `run` verb(s) on the program. (Being built.) */
export function registerRun(_program: Command): void {}
