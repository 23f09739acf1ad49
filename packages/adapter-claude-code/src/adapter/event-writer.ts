/** The event writer lives in the seam (shared by every adapter executable). */
export { EventWriter } from '@statecraft/adapter';
