import { access, constants } from 'node:fs/promises';

/**
 * An adapter executable that cannot be run is the caller's mistake, not an attempt: it is found
 * before spawn and thrown, naming the path, the same way under either containment mechanism
 * (behind `unshare` the failure would otherwise surface only as an exit status and a stderr line).
 */
export async function checkExecutable(executable: string): Promise<void> {
  try {
    await access(executable, constants.X_OK);
  } catch (error) {
    throw new Error(`The adapter executable ${executable} cannot be executed; nothing was spawned`, { cause: error });
  }
}
