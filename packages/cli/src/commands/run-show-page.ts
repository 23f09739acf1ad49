import { resolve } from 'node:path';
import type { Answer } from '../answer.js';
import { UsageError } from '../errors.js';
import { renderReviewerPage } from '../render/html/reviewer-page.js';
import type { ShownAccount } from '../render/html/reviewer-evidence.js';
import { writeReviewerPage } from '../render/html/write-page.js';

/** The page's name when `-o` is not given: in the working directory, named for the run and attempt (decision 0271). */
function defaultPagePath(runId: string, attempt: number): string {
  return resolve(`statecraft-${runId}-attempt-${String(attempt)}.html`);
}

/**
 * `statecraft run show [target] <run> --html [-o <file>]`: the attempt's reviewer's page written
 * (to `-o`, `-` for stdout, else the default path, said on stdout). The exit code is `run show`'s:
 * the page of an attempt whose evidence does not hold is written, and the exit says so.
 */
export async function runShowPage(options: {
  home: string;
  target: string;
  runId: string;
  attempt?: number;
  output?: string;
  json: boolean;
}): Promise<Answer<ShownAccount>> {
  if (options.output === '-' && options.json)
    throw new UsageError('-o - writes the page to stdout, where --json writes its document', 'give -o a file with --json, or leave --json out');
  const page = await renderReviewerPage(options);
  const { shown, exitCode } = page.evidence;
  const path = options.output === undefined ? defaultPagePath(shown.runId, shown.attempt) : options.output === '-' ? '-' : resolve(options.output);
  await writeReviewerPage(page.html, path);
  const bytes = page.html.length;
  if (path === '-') return { value: shown, exitCode, human: () => [] };
  return {
    value: { ...shown, page: { path, bytes } },
    exitCode,
    human: () => [
      `wrote the reviewer's page of run ${shown.runId} attempt ${String(shown.attempt)}:`,
      `  ${path}`,
      ...(exitCode === 0 ? [] : [`the attempt ended ${shown.outcome} or its evidence does not hold: the page says which`]),
    ],
  };
}
