import type { Command } from 'commander';

/** Registers the `env` verb(s) on the program. (Being built.) */
export function registerEnv(_program: Command): void {}
