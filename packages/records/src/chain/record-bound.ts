/**
 * The most bytes one chain record may take, its newline apart. Records are small: what an agent
 * or adapter puts in one is bounded where it is read (a stream line at 1 MiB, refusals by count and
 * bytes, the candidate's changed paths at half this bound: identify-candidate.ts), so a longer
 * line, or a tail longer than this with no newline, was never appended by statecraft: it is damage
 * or another writer's bytes, not an append cut short. Readers stop at it
 * with their memory bounded (a 3 GiB tail had `run list` at 6.4 GB and `run` killed by the
 * allocator), refuse the chain naming its line, and never cut it as a torn tail; the writer refuses
 * to append a record over it, so the reader never refuses what was written.
 */
export const MAX_RECORD_BYTES = 32 * 1024 * 1024;
