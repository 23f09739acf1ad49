/**
 * The most bytes one chain record may take, its newline apart. Records are small and bounded by
 * construction (the largest is an outcome carrying one stream line of at most 1 MiB and bounded
 * excerpts), so a longer line, or a tail longer than this with no newline, was never appended by
 * statecraft: it is damage or another writer's bytes, not an append cut short. Readers stop at it
 * with their memory bounded (a 3 GiB tail had `run list` at 6.4 GB and `run` killed by the
 * allocator), refuse the chain naming its line, and never cut it as a torn tail; the writer refuses
 * to append a record over it, so the reader never refuses what was written.
 */
export const MAX_RECORD_BYTES = 32 * 1024 * 1024;
