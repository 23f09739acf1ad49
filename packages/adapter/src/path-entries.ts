import { delimiter, isAbsolute } from 'node:path';

/** The operator's PATH as the child gets it: only its absolute entries, and those left out. */
export interface PathEntries {
  kept: string;
  /** Each empty or relative entry, in the operator's order; an empty string is an empty entry. */
  dropped: string[];
}

/**
 * Keeps only PATH's absolute entries (R5.1). An empty or relative entry resolves against the
 * child's working directory — the agent's workspace (R7.1) — so a program planted there (say
 * `node_modules/.bin/grep`) would answer for the one an adapter or a check names.
 */
export function keepAbsolutePathEntries(value: string): PathEntries {
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const entry of value.split(delimiter)) (isAbsolute(entry) ? kept : dropped).push(entry);
  return { kept: kept.join(delimiter), dropped };
}
