import { z } from 'zod';

/**
 * What a constructed environment does not buy (R5.3). The property is integrity of the record
 * against an ordinary session, not containment of hostile code; these are named on every attempt.
 * No sentence here — or anywhere — claims the child cannot publish.
 */
export const ResidualSchema = z.strictObject({
  id: z.enum(['absolute-path-bypass', 'home-readable', 'stored-credentials-answer', 'publish-around-supervisor']),
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
];
