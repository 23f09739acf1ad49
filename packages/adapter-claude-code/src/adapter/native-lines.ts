/** The native line splitter lives in the seam (shared by every adapter executable). */
export { MAX_NATIVE_LINE_BYTES, nativeLines } from '@statecraft/adapter';
