/**
 * Where `--spec <id>` is looked for (R9.2; decision 0004): `specs/<id>/spec.md` first, then
 * `specs/<id>.md`; the first that exists is the spec, the same rule at planning and at launch.
 * An id is one or more `/`-separated segments of letters, digits and `_ . -`, none starting
 * with `.`, so no id can leave `specs/`.
 */
const SPEC_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]*(\/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$/;

export function isSpecId(id: string): boolean {
  return SPEC_ID.test(id);
}

/** The candidate paths, repository-relative, in lookup order. */
export function specCandidatePaths(id: string): [string, string] {
  return [`specs/${id}/spec.md`, `specs/${id}.md`];
}
