import type { BoundaryAvailability } from '@statecraft/environment';

/** One line for `doctor` and `env plan`: whether the evidence boundary can be established here, and why not (R12). */
export function describeBoundaryAvailability(availability: BoundaryAvailability): string {
  if (availability.available) return `boundary: can be established here (${availability.version}, ${availability.bwrap})`;
  return `boundary: cannot be established here (${availability.reason}): ${availability.message}`;
}
