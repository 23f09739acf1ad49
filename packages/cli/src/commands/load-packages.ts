/**
 * The packages below the CLI, each loaded the first time a verb needs it. The verbs' registrations
 * and anything they import statically reach no package (a test holds it), so a start that prints
 * help or refuses a usage error compiles only commander and the CLI's own wiring, and each verb
 * loads what it runs.
 */
export const loadRecords = () => import('@statecraft/records');

/** The product home's path (`$STATECRAFT_HOME`, default ~/.statecraft), as records resolves it. */
export async function productHomePath(): Promise<string> {
  return (await loadRecords()).resolveProductHome().path;
}
