/**
 * The name bin/statecraft sets, beside GLIBC_TUNABLES, when it is the one that set GLIBC_TUNABLES:
 * its value is exactly the value it set.
 */
const LAUNCH_TUNABLES_MARKER = 'STATECRAFT_LAUNCH_GLIBC_TUNABLES';

/**
 * Takes back the GLIBC_TUNABLES bin/statecraft set for this process alone, before anything reads
 * the environment: glibc read it as this process started (its malloc backs large blocks with
 * transparent huge pages, which spares a start many page faults), and it is not the operator's. Every
 * child — git, an adapter, a check — and every plan and record then sees the environment the
 * operator gave, exactly. A GLIBC_TUNABLES the operator set is never touched: the launcher leaves
 * it, sets no marker, and the value differs from the marker's in any case.
 */
export function forgetLaunchTunables(environment: NodeJS.ProcessEnv = process.env): void {
  const set = environment[LAUNCH_TUNABLES_MARKER];
  if (set === undefined) return;
  delete environment[LAUNCH_TUNABLES_MARKER];
  if (environment.GLIBC_TUNABLES === set) delete environment.GLIBC_TUNABLES;
}
