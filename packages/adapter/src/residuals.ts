import * as z from 'zod';

/**
 * What a constructed environment does not buy (R5.3). The property is integrity of the record
 * against an ordinary session, not containment of hostile code; these are named on every attempt,
 * with those of the process-group fallback on an attempt that ran under it.
 * No sentence here — or anywhere — claims the child cannot publish.
 */
export const ResidualSchema = z.strictObject({
  id: z.enum([
    'absolute-path-bypass',
    'home-readable',
    'stored-credentials-answer',
    'publish-around-supervisor',
    'request-path-reveals-product-home',
    'supervisor-environment-readable',
    'supervisor-signalable',
  ]),
  statement: z.string().min(1),
});
export type Residual = z.infer<typeof ResidualSchema>;

export const ENVIRONMENT_RESIDUALS: readonly Residual[] = [
  {
    id: 'absolute-path-bypass',
    statement: 'an absolute path bypasses PATH redirection: the child can run any program it can name',
  },
  {
    id: 'home-readable',
    statement: "the operator's home directory stays readable to the child, whether or not HOME is passed",
  },
  {
    id: 'stored-credentials-answer',
    statement: 'a credential held in a keychain or a credentials file answers whoever asks, the child included',
  },
  {
    id: 'publish-around-supervisor',
    statement: 'a publish that goes around the supervisor (its own network call, a stored credential) leaves no record here',
  },
  {
    id: 'request-path-reveals-product-home',
    statement:
      "the request's path on the child's command line (run --request) names the product home, which the child, running as the operator's user, can read and write",
  },
];

/** The mechanisms that contain an attempt's process tree (the adapter package's `ContainmentMechanism`). */
export type ContainmentKind = 'pid-namespace' | 'process-group' | 'bwrap';

/**
 * What the process-group fallback adds: the child shares the supervisor's user and its view of
 * /proc, so the supervisor is visible to it. A PID namespace with its own /proc hides it.
 */
const PROCESS_GROUP_RESIDUALS: readonly Residual[] = [
  {
    id: 'supervisor-environment-readable',
    statement:
      "under the process-group fallback the child can read every name and value of the supervisor's own environment, credentials included, from /proc/<supervisor pid>/environ",
  },
  {
    id: 'supervisor-signalable',
    statement:
      'under the process-group fallback the child can stop or kill its supervisor; a supervisor killed leaves the intent without an outcome, which doctor reports',
  },
];

/** The residuals recorded on an attempt contained by `containment`. */
export function residualsFor(containment: ContainmentKind): Residual[] {
  // Under the evidence boundary (R12) the adapter is pointed at a copy of the request in its
  // private TMPDIR, and the product home is hidden: the request path no longer reveals it.
  // The homes are hidden too: what stays readable of them is named by the boundary's own residuals.
  if (containment === 'bwrap')
    return ENVIRONMENT_RESIDUALS.filter((residual) => residual.id !== 'request-path-reveals-product-home' && residual.id !== 'home-readable');
  return containment === 'process-group' ? [...ENVIRONMENT_RESIDUALS, ...PROCESS_GROUP_RESIDUALS] : [...ENVIRONMENT_RESIDUALS];
}
