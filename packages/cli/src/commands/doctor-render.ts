import type { HomeExamination } from '@statecraft/records';
import type { HumanLines } from '../render/human-lines.js';
import { fitRows } from '../render/terminal-width.js';

/** The human rendering of doctor's examination; a finding's message quotes record fields, each kept to its line (human-lines.ts). */
export function renderExamination(value: HomeExamination): HumanLines {
  if (!value.exists && value.findings.length === 0) return [`${value.home}: no product home yet (an empty home); nothing to check`];
  const lines = [
    value.exists ? `${value.home}: ${value.targets.length} target${value.targets.length === 1 ? '' : 's'}` : `${value.home}: no product home can be made there`,
  ];
  for (const target of value.targets) {
    lines.push(
      `  ${target.target} (${target.key}): chain ${target.state}, ${target.records} records, ${target.attempts} attempts, ${target.dangling.length} dangling, ${target.reclassified} re-classified from their kept streams`,
    );
  }
  if (value.findings.length === 0) {
    lines.push('no findings');
  } else {
    lines.push(`${value.findings.length} finding${value.findings.length === 1 ? '' : 's'} (nothing was repaired):`);
    for (const finding of value.findings) lines.push(`  ${finding.kind}: ${finding.message}`);
  }
  return fitRows(lines);
}
