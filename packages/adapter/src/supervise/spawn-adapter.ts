import { execa } from 'execa';
import { boundaryCommand } from './bwrap-boundary.js';
import type { ContainmentChoice } from './probe-containment.js';
import { UNSHARE_FLAGS } from './probe-containment.js';
import { ATTEMPT_TAG_VARIABLE } from './options.js';
import type { SuperviseOptions } from './options.js';

/**
 * Starts the adapter (R1.3, R5.1, R7.1): no shell; the constructed environment passed whole
 * (`extendEnv: false`) plus the attempt tag every descendant inherits; the workspace as cwd;
 * three pipes. Under a PID namespace the adapter becomes the namespace's first process, behind
 * `unshare`; in the fallback it leads its own process group (`detached`), so the group can be
 * killed as one.
 */
export function spawnAdapter(options: SuperviseOptions, choice: ContainmentChoice) {
  const inNamespace = 'unshare' in choice || 'boundary' in choice;
  const command =
    'boundary' in choice
      ? boundaryCommand(choice.boundary, options.executable, options.args, [...Object.keys(options.environment), ATTEMPT_TAG_VARIABLE])
      : 'unshare' in choice
        ? { file: choice.unshare, args: [...UNSHARE_FLAGS, '--', options.executable, ...options.args] }
        : { file: options.executable, args: [...options.args] };
  const { file, args } = command;
  return execa(file, args, {
    cwd: options.workspace,
    env: { ...options.environment, [ATTEMPT_TAG_VARIABLE]: options.attemptTag },
    extendEnv: false,
    shell: false,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    encoding: 'buffer',
    detached: !inNamespace,
    // The supervisor kills the tree itself; execa's own kill-on-exit only reaches the direct child.
    cleanup: true,
  });
}

export type AdapterProcess = ReturnType<typeof spawnAdapter>;
