/** The event draft lives in the seam (shared by every adapter executable). */
export type { EventDraft } from '@statecraft/adapter';
