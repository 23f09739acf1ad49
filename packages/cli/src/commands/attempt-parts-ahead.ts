import { startAttemptSummaries, type AttemptSummaries, type AttemptSummary, type LiveHolder } from '@statecraft/records';
import { ELEMENTS_PER_PART, partBytes, useRenderedParts } from '../json-in-parts.js';

/**
 * `run list --json`'s attempts rendered a part at a time while the chain is still being read,
 * for jsonInParts to print as they are. Printed after the reading, 100,000 summaries would keep the
 * main thread busy while the hashing worker idles; rendered during the reading, the work shares the
 * reading's two cores (decision 0023). A part is rendered once the attempts after it have begun and
 * every one of its own has an outcome; a later record that changes one of its attempts (an
 * acceptance) drops its text, and a part with an attempt that has no outcome is never
 * rendered ahead: whether it is running is known only at the end. What is dropped or never
 * rendered is rendered when printed, from the final summaries, as without this.
 */
export class AttemptPartsAhead {
  /** The UTF-8 text of each part rendered so far, or undefined where it was dropped or not rendered. */
  private readonly texts: (Buffer | undefined)[] = [];
  readonly summaries: AttemptSummaries = startAttemptSummaries((index) => {
    const part = Math.floor(index / ELEMENTS_PER_PART);
    if (part < this.texts.length) this.texts[part] = undefined;
  });

  /** After each verified entry: renders the next part once the attempt after its last has begun. */
  afterEntry(): void {
    const part = this.texts.length;
    const start = part * ELEMENTS_PER_PART;
    if (this.summaries.count() <= start + ELEMENTS_PER_PART) return;
    const elements: AttemptSummary[] = [];
    for (let index = start; index < start + ELEMENTS_PER_PART; index += 1) {
      const summary = this.summaries.concludedSoFar(index);
      if (summary === undefined) {
        this.texts.push(undefined);
        return;
      }
      elements.push(summary);
    }
    this.texts.push(partBytes(elements));
  }

  /** Every attempt's summary (AttemptSummaries.finish), with the parts still rendered handed to jsonInParts. */
  finish(live: LiveHolder): AttemptSummary[] {
    const attempts = this.summaries.finish(live);
    const texts = this.texts;
    useRenderedParts(attempts, (index) => texts[index]);
    return attempts;
  }
}
