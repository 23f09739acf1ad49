import { accountFindings } from '../../commands/run-render.js';
import { escapeHtml } from './escape-html.js';
import type { ReviewerEvidence } from './reviewer-evidence.js';

/** The tone of an outcome or verdict word, as the terminal summary colours it. */
export function toneOf(word: string): 'good' | 'bad' | 'warn' | '' {
  if (word === 'completed' || word === 'accepted' || word === 'passed') return 'good';
  if (['refused', 'failed', 'rejected', 'authority-change', 'dangling', 'unqualified'].includes(word)) return 'bad';
  if (['interrupted', 'cancelled', 'no-acceptance', 'not-attempted', 'running', 'not-recorded'].includes(word)) return 'warn';
  return '';
}

function card(label: string, value: string, details: string, id: string): string {
  return `<div class="card" id="${id}"><div class="label">${escapeHtml(label)}</div><div class="value ${toneOf(value)}">${escapeHtml(value)}</div>${details}</div>`;
}

const para = (text: string): string => `<p>${escapeHtml(text)}</p>`;

/** What "holds" covers: the outcome classified again, unless the page was made for an export, whose bundle verify classifies. */
function holdsWords(a: ReviewerEvidence['shown']): string {
  return a.outcomeCheck.state === 'not-checked' && a.outcomeCheck.reason === 'left-to-verify'
    ? 'every kept file as the chain sealed it; the outcome is classified again from the stream by statecraft verify of the bundle, not by this page'
    : 'every kept file as the chain sealed it, and the outcome its stream gives';
}

/** The head of the page: what statecraft classified beside what the agent claimed, and the verdict. */
export function summarySection(evidence: ReviewerEvidence): string {
  const a = evidence.shown;
  const outcome = a.state === 'concluded' ? a.outcome : a.state;
  const cause = a.cause !== 'none' && a.cause !== 'not-recorded' ? para(`cause: ${a.cause}`) : '';
  const claim = a.providerClaim === 'not-recorded' ? 'not-recorded' : a.providerClaim.status;
  const claimWords =
    a.providerClaim === 'not-recorded'
      ? para('the agent made no claim statecraft could read')
      : para(`error: ${String(a.providerClaim.isError)}, reason: ${a.providerClaim.reason}. A claim, not the outcome.`);
  const said = a.finalMessage === undefined || a.finalMessage === 'none' ? '' : `<p class="words">“${escapeHtml(a.finalMessage.text)}”</p>`;
  const acceptance = a.acceptance;
  const verdict = acceptance === 'not-recorded' ? 'not-recorded' : acceptance.verdict;
  const verdictWords =
    acceptance === 'not-recorded'
      ? para(`never judged: statecraft accept ${a.target} ${a.runId} --attempt ${String(a.attempt)}`)
      : para(`${acceptance.reason}: ${acceptance.explanation}`);
  const refusals = a.refusalCount === 'not-recorded' ? 'not recorded' : String(a.refusalCount);
  const findings = accountFindings(a).map((line) => line.trim());
  // The evidence, apart from the outcome: a refused attempt's kept files may hold all the same.
  const holds =
    findings.length === 0 &&
    Object.values(a.artifactCheck).every((state) => state === 'verified' || state === 'not-recorded') &&
    a.outcomeCheck.state !== 'disagrees' &&
    a.recordDisagreements.length === 0 &&
    a.recordFindings.length === 0;
  return `<header>
<h1>Run ${escapeHtml(a.runId)}, attempt ${String(a.attempt)}</h1>
<p class="sub">${escapeHtml(a.target)} · base ${escapeHtml(a.baseCommit)} · started ${escapeHtml(a.startedAt)}</p>
</header>
<section id="summary" aria-label="summary">
<div class="cards">
${card('outcome (classified by statecraft)', outcome, cause + para(`refusals: ${refusals}`), 'outcome')}
${card("the agent's claim", claim, claimWords + said, 'claim')}
${card('acceptance verdict', verdict, verdictWords, 'verdict')}
${card('evidence', holds ? 'holds' : 'findings', para(holds ? holdsWords(a) : 'see the findings below'), 'evidence')}
</div>
${findings.length === 0 ? '' : `<div class="findings" id="findings"><h3>Findings</h3><ul>${findings.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul></div>`}
</section>`;
}
