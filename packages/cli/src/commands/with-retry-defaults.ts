import type { RetryDefaults } from './retry-defaults.js';
import type { RunOptions } from './run.js';

/** The options a run is given, with what the command line did not say taken from the retried run. */
export function withRetryDefaults<T extends Pick<RunOptions, 'deadlineMs' | 'maxTurns' | 'allow' | 'deny' | 'required' | 'preferred' | 'provider'>>(
  options: T,
  defaults: RetryDefaults | undefined,
  given: (option: 'deadline' | 'maxTurns' | 'allow' | 'deny' | 'require' | 'prefer' | 'provider') => boolean,
): T {
  if (defaults === undefined) return options;
  return {
    ...options,
    ...(given('deadline') ? {} : { deadlineMs: defaults.deadlineMs }),
    ...(given('maxTurns') ? {} : { maxTurns: defaults.maxTurns }),
    ...(given('allow') ? {} : { allow: defaults.allow }),
    ...(given('deny') ? {} : { deny: defaults.deny }),
    ...(given('require') ? {} : { required: defaults.required as RunOptions['required'] }),
    ...(given('prefer') ? {} : { preferred: defaults.preferred as RunOptions['preferred'] }),
    ...(given('provider') || defaults.provider === undefined ? {} : { provider: defaults.provider }),
  };
}
