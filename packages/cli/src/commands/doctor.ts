import type { z } from 'zod';
import { examineProductHome } from '@statecraft/acceptance';
import type { DoctorAnswerSchema } from '../json-schemas/index.js';
import type { Answer } from '../answer.js';
import { EXIT } from '../exit-codes.js';
import { renderExamination } from './doctor-render.js';

/**
 * `statecraft doctor`: checks the product home and every chain in it (links, torn tails,
 * dangling intents, stale locks, kept files re-digested, outcomes classified again from their kept
 * streams). Repairs nothing. Exit 0 nothing found; 1 findings.
 */
export async function doctor(options: { home: string }): Promise<Answer<z.infer<typeof DoctorAnswerSchema>>> {
  const value = await examineProductHome(options.home);
  return { value, exitCode: value.findings.length === 0 ? EXIT.ok : EXIT.finding, human: renderExamination };
}
