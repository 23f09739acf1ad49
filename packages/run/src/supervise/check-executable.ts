import { checkExecutableFile, EXECUTABLE_CHECK_WORDS } from '@statecraft/adapter';

/**
 * An adapter executable that cannot be run is the caller's mistake, not an attempt: it is found
 * before spawn and thrown, naming the path, the same way under either containment mechanism
 * (behind `unshare` the failure would otherwise surface only as an exit status and a stderr line).
 */
export async function checkExecutable(executable: string): Promise<void> {
  const check = await checkExecutableFile(executable);
  if (check === 'usable') return;
  throw new Error(`The adapter executable ${executable} cannot be executed (${EXECUTABLE_CHECK_WORDS[check]}); nothing was spawned`);
}
