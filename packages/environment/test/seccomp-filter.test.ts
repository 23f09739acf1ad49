import { describe, expect, it } from 'vitest';
import { seccompFilterProgram } from '../src/boundary/seccomp-filter.js';

// R12: the keyring system calls are denied by number, which differs per architecture. On one
// whose numbers statecraft does not know, no filter is made and the boundary is refused, named.

describe('the keyring filter', () => {
  it.each(['x64', 'arm64'])('is a whole number of BPF instructions on %s, ending by killing a process of an unknown architecture', (architecture) => {
    const filter = seccompFilterProgram(architecture);
    if (!('program' in filter)) throw new Error(filter.refused);
    expect(filter.program.length % 8).toBe(0);
    // The last instruction: BPF_RET | BPF_K with SECCOMP_RET_KILL_PROCESS.
    const last = filter.program.subarray(filter.program.length - 8);
    expect([last.readUInt16LE(0), last.readUInt32LE(4)]).toEqual([0x06, 0x80000000]);
  });

  it('is refused on an architecture whose system call numbers are not known, naming it', () => {
    const filter = seccompFilterProgram('riscv64');
    expect(filter).toEqual({ refused: expect.stringContaining('(riscv64)') as unknown });
    expect('refused' in filter && filter.refused).toContain('x64 and arm64 only');
  });
});
