import { STATECRAFT_VERSION } from '../../statecraft-version.js';
import { checksSection } from './checks-section.js';
import { comparisonSection } from './comparison-section.js';
import { diffSection } from './diff-section.js';
import { escapeHtml } from './escape-html.js';
import { filesSection } from './files-section.js';
import { pageDocument } from './page-document.js';
import { postureSection } from './posture-section.js';
import { gatherReviewerEvidence, type ReviewerEvidence, type ReviewerPageOptions } from './reviewer-evidence.js';
import { summarySection } from './summary-section.js';
import { timelineSection } from './timeline-section.js';

export interface ReviewerPage {
  /** The document's UTF-8 bytes. */
  html: Buffer;
  /** The account `run show` computes for the attempt, which the page renders. */
  evidence: ReviewerEvidence;
}

/**
 * The reviewer's page of one attempt: one self-contained HTML document (no request of any kind, a
 * policy that forbids one) with the outcome beside the agent's claim, the verdict, the timeline, the
 * diff, the checks, the posture and the kept files, each digested again by the page itself. Reads
 * as `run show` reads (a broken chain or an unknown run is refused the same way); writes nothing.
 */
export async function renderReviewerPage(options: ReviewerPageOptions): Promise<ReviewerPage> {
  const evidence = await gatherReviewerEvidence(options);
  const a = evidence.shown;
  const sections: (string | (string | Buffer)[])[] = [
    summarySection(evidence),
    comparisonSection(evidence),
    timelineSection(evidence.log, evidence.timelineRead),
    diffSection(evidence.diff),
    checksSection(evidence),
    postureSection(evidence),
    filesSection(evidence.files),
    `<footer><p class="note">Made by statecraft ${escapeHtml(STATECRAFT_VERSION)} from the records in the product home. The page fetches nothing; its one script only digests the files it carries.</p>
<noscript><p class="note">Scripts are off: the digests of the kept files are not recomputed here.</p></noscript></footer>`,
  ];
  const body = sections.flatMap((section, index) => [...(index === 0 ? [] : ['\n']), ...(typeof section === 'string' ? [section] : section)]);
  return { html: pageDocument(`statecraft: run ${a.runId}, attempt ${String(a.attempt)}`, body), evidence };
}
