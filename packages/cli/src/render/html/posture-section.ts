import { escapeHtml } from './escape-html.js';
import type { ReviewerEvidence, ShownAccount } from './reviewer-evidence.js';
import type { SignatureState } from './signature-states.js';

type Posture = ShownAccount['posture'];

function boundaryWords(boundary: Posture['boundary']): string {
  if (boundary === 'not-recorded') return 'not recorded (a record made before the evidence boundary existed)';
  if (boundary.mechanism === 'none') return `NONE (chosen by ${boundary.chosenBy}): the agent ran with the records in reach`;
  const held = boundary.probe.filter((check) => check.held).length;
  return `${boundary.version}, profile ${boundary.profileDigest}, probe ${String(held)}/${String(boundary.probe.length)} held`;
}

function permissionWords(permissions: Posture['permissions']): string {
  if (permissions === 'not-recorded') return 'not recorded';
  return permissions.mode === 'sandboxed'
    ? 'sandboxed: every tool runs in the workspace but the denied'
    : "strict: only allowed tools beyond the provider's own";
}

function signatureWords(state: SignatureState): string {
  if (state.kind === 'present') return `signature present, not verified here (${state.path})`;
  if (state.kind === 'unsigned') return 'unsigned';
  return `unsigned (${state.why})`;
}

const fact = (term: string, value: string, id = ''): string => `<dt>${escapeHtml(term)}</dt><dd${id === '' ? '' : ` id="${id}"`}>${escapeHtml(value)}</dd>`;

/** What the attempt ran under, and what that leaves open: the boundary, the residuals, the qualification, the signatures. */
export function postureSection(evidence: ReviewerEvidence): string {
  const p = evidence.shown.posture;
  const residuals = [...p.environment.residuals, ...(p.boundary === 'not-recorded' ? [] : p.boundary.residuals)].map((residual) => residual.statement);
  return `<section id="posture"><h2>Posture</h2>
<dl class="facts">
${fact('adapter', `${p.adapter.name} ${p.adapter.version} (${p.adapter.digest})`)}
${fact('qualification', `${p.qualification.verdict}: ${p.qualification.reason}`, 'qualification')}
${fact('boundary', boundaryWords(p.boundary), 'boundary')}
${fact('permissions', permissionWords(p.permissions))}
${fact('containment', p.containment.mechanism)}
${fact('receipt signature', signatureWords(evidence.signatures.receipt), 'receipt-signature')}
${fact('qualification signature', signatureWords(evidence.signatures.qualification), 'qualification-signature')}
</dl>
<h3>Residuals: what the posture leaves open</h3>
${residuals.length === 0 ? '<p class="note">none recorded</p>' : `<ul class="residuals">${residuals.map((statement) => `<li>${escapeHtml(statement)}</li>`).join('')}</ul>`}
</section>`;
}
