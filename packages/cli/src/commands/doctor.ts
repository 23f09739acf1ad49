import type { z } from 'zod';
import { examineProductHome } from '@statecraft/records';
import { checkBoundaryAvailability } from '@statecraft/environment';
import type { DoctorAnswerSchema } from '../json-schemas/index.js';
import type { Answer } from '../answer.js';
import { EXIT } from '../exit-codes.js';
import { describeBoundaryAvailability } from './boundary-availability-render.js';
import { renderExamination } from './doctor-render.js';

/**
 * `statecraft doctor`: checks the product home and every chain in it (links, torn tails,
 * dangling intents, stale locks, kept files re-digested, outcomes classified again from their kept
 * streams). Repairs nothing. Exit 0 nothing found; 1 findings.
 */
export async function doctor(options: { home: string }): Promise<Answer<z.infer<typeof DoctorAnswerSchema>>> {
  // Whether the evidence boundary (R12) can be made here is said beside the findings, not as one:
  // it is the machine's state, and `run` refuses (or `--boundary none` records) on its own.
  const [examination, boundary] = await Promise.all([examineProductHome(options.home), checkBoundaryAvailability(process.env.PATH)]);
  const value = { ...examination, boundary };
  return {
    value,
    exitCode: value.findings.length === 0 ? EXIT.ok : EXIT.finding,
    human: (shown) => [...renderExamination(shown), describeBoundaryAvailability(shown.boundary)],
  };
}
