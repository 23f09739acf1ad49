/**
 * The seccomp filter every launch in the boundary gets (R12). It answers EPERM to two kinds of
 * system calls:
 *
 * - The kernel's keyring calls (`add_key`, `request_key`, `keyctl`). The sandbox inherits the
 *   operator's session keyring, and through it (or by uid) the user keyring: without the filter an
 *   agent or a check reads, unlinks, overwrites and plants keys that outlive the attempt. A new
 *   session keyring would not do: the user keyring follows the uid.
 * - The calls that attach to another process of the sandbox (`ptrace`, `process_vm_readv`,
 *   `process_vm_writev`, `pidfd_getfd`). Every process inside shares one uid: a tool the agent
 *   starts could take the adapter's stdout or rewrite its memory and forge its events, and a check
 *   could take bwrap's own descriptor that carries the check's exit status out and write another.
 *   Yama refuses these only where `ptrace_scope` is 1 or more; the filter does so everywhere. The
 *   fourth way, a write to `/proc/<pid>/mem`, is closed by mounting /proc read-only (bwrap-boundary.ts).
 *
 * - For an acceptance's checks, the calls that change extended attributes (`setxattr` and its
 *   kin): git compares no attribute, so one an earlier check set on a tracked file, or on the
 *   TMPDIR, would reach the checks after it, which read them (worktree-shape.ts compares the rest).
 *
 * A classic BPF program, read by bwrap from a descriptor (`--seccomp FD`); written here, since no
 * npm package builds one and it takes four opcodes.
 */

/** The system calls denied, by name, as the boundary record says. */
export const DENIED_KEYRING_CALLS = ['add_key', 'request_key', 'keyctl'] as const;
export const DENIED_ATTACH_CALLS = ['ptrace', 'process_vm_readv', 'process_vm_writev', 'pidfd_getfd'] as const;

/** A process architecture as the kernel names it in `seccomp_data.arch`, with the numbers of the denied calls there. */
interface Audited {
  /** setxattr, lsetxattr, fsetxattr, removexattr, lremovexattr, fremovexattr, setxattrat, removexattrat: a check's sandbox only. */
  xattr: readonly number[];
  arch: number;
  /** add_key, request_key, keyctl, then ptrace, process_vm_readv, process_vm_writev, pidfd_getfd (and their x32 numbers on x86_64). */
  calls: readonly number[];
}

/** x32 system calls are the x86_64 numbers with this bit set, under the x86_64 audit arch. */
const X32_BIT = 0x4000_0000;

/**
 * Per host architecture (node's `process.arch`), each audit architecture a process there can run
 * as: the native one and its 32-bit compatibility one. A 32-bit binary reaches the keyring
 * through its own numbers, so each is filtered.
 */
const ARCHITECTURES: Readonly<Record<string, readonly Audited[]>> = {
  x64: [
    {
      arch: 0xc000003e,
      calls: [
        ...[248, 249, 250, 101, 310, 311, 438],
        // x32: the shared numbers with the x32 bit, and its own ptrace and process_vm_* (521, 539, 540).
        ...[248, 249, 250, 101, 310, 311, 438, 521, 539, 540].map((call) => X32_BIT | call),
      ],
      xattr: [...[188, 189, 190, 197, 198, 199, 463, 466], ...[188, 189, 190, 197, 198, 199, 463, 466].map((call) => X32_BIT | call)],
    },
    { arch: 0x40000003, calls: [286, 287, 288, 26, 347, 348, 438], xattr: [226, 227, 228, 235, 236, 237, 463, 466] },
  ],
  arm64: [
    { arch: 0xc00000b7, calls: [217, 218, 219, 117, 270, 271, 438], xattr: [5, 6, 7, 14, 15, 16, 463, 466] },
    { arch: 0x40000028, calls: [309, 310, 311, 26, 376, 377, 438], xattr: [226, 227, 228, 235, 236, 237, 463, 466] },
  ],
};

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const RET_K = 0x06;
const SECCOMP_DATA_NR = 0;
const SECCOMP_DATA_ARCH = 4;
const RET_ALLOW = 0x7fff_0000;
const RET_ERRNO_EPERM = 0x0005_0000 | 1;
/** A process of an architecture not listed: its system call numbers mean nothing known, so it is not let run. */
const RET_KILL_PROCESS = 0x8000_0000;

/** The filter's program for this host, or why the boundary cannot be set up here. */
export function seccompFilterProgram(architecture: string = process.arch, options: { checks?: boolean } = {}): { program: Buffer } | { refused: string } {
  const audited = ARCHITECTURES[architecture];
  if (audited === undefined) {
    return {
      refused: `the keyring and process-attaching system calls cannot be denied on this architecture (${architecture}): statecraft knows their numbers on x64 and arm64 only, and a sandbox that shares the operator's keyrings is no boundary`,
    };
  }
  const instructions: [number, number, number, number][] = [];
  for (const { arch, calls: always, xattr } of audited) {
    const calls = options.checks === true ? [...always, ...xattr] : always;
    // Per architecture: load the arch, skip the block unless it matches; load the number, deny the listed ones, allow the rest.
    instructions.push([LD_W_ABS, 0, 0, SECCOMP_DATA_ARCH], [JEQ_K, 0, calls.length + 3, arch], [LD_W_ABS, 0, 0, SECCOMP_DATA_NR]);
    calls.forEach((call, index) => instructions.push([JEQ_K, calls.length - index, 0, call]));
    instructions.push([RET_K, 0, 0, RET_ALLOW], [RET_K, 0, 0, RET_ERRNO_EPERM]);
  }
  instructions.push([RET_K, 0, 0, RET_KILL_PROCESS]);
  // struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; }, in the host's byte order (little-endian on both).
  const program = Buffer.alloc(instructions.length * 8);
  instructions.forEach(([code, jt, jf, k], index) => {
    program.writeUInt16LE(code, index * 8);
    program.writeUInt8(jt, index * 8 + 2);
    program.writeUInt8(jf, index * 8 + 3);
    program.writeUInt32LE(k >>> 0, index * 8 + 4);
  });
  return { program };
}
