import { dirname } from 'node:path';
import { caseStatusLabel } from '../render/case-status.js';
import { clipped, fitRows, fitToWidth, shortDigest, WIDTH } from '../render/terminal-width.js';
import type { QualifyValue } from './qualify.js';
import type { HumanLines, HumanSpans } from '../render/human-lines.js';

/**
 * The person's reading of a qualify answer: the same value `--json` prints, every row fitted to a
 * terminal. A case that passed is its title; one that did not says why. Each case's evidence is in
 * `qualifications show` and `--json`, digests whole in `--json`.
 */
export function renderQualifyReport(value: QualifyValue): HumanLines {
  const lines: (string | HumanSpans)[] = [
    `adapter   ${value.adapter.name} ${value.adapter.version}  ${shortDigest(value.adapter.digest)}`,
    `manifest  ${shortDigest(value.adapter.manifestDigest)}`,
    `provider  ${value.provider === 'none' ? 'none (the adapter fronts no provider)' : `${value.provider.name} ${value.provider.version}  ${shortDigest(value.provider.digest)}`}`,
    ...(value.provider === 'none' ? [] : value.provider.identityFiles.map((file) => `  identity file  ${file.file}  ${shortDigest(file.digest)}`)),
    `suite     ${value.suiteVersion}  (driver: ${value.driver})`,
    `boundary  ${value.boundary === 'bwrap' ? 'bwrap: every attempt ran inside the evidence boundary' : value.boundary === 'none' ? 'NONE: the attempts ran without the evidence boundary' : 'not-recorded'}`,
    ...(value.hidden === undefined ? [] : [`          hidden from it: ${hiddenInWords(value.hidden)}`]),
    '',
  ];
  for (const entry of value.cases) {
    const row = `${caseStatusLabel(entry.status)}  row ${entry.row}  ${entry.title}  [${entry.evidence}]`;
    lines.push(...fitToWidth([row, ...(entry.status === 'pass' ? [] : [`${' '.repeat(CASE_TITLE_COLUMN)}${entry.detail}`])], CASE_TITLE_COLUMN));
  }
  lines.push('');
  if (value.record !== null) {
    lines.push(
      'qualified: every case passed',
      `record    ${value.record.id}`,
      `          in ${dirname(value.record.path)}`,
      "each case's evidence: statecraft qualifications show <record>",
    );
  } else {
    const failing = value.cases.filter((entry) => entry.status !== 'pass').map((entry) => `row ${entry.row}`);
    lines.push(`not qualified: ${failing.join(', ')} did not pass; no record written`);
    lines.push(
      value.boundary === 'none'
        ? '  the binary still runs, labelled unqualified; without the evidence boundary row 9 cannot pass, whatever the adapter: qualify without --boundary none'
        : '  the binary still runs, labelled unqualified; fix the rows above and qualify again',
    );
  }
  return fitRows(lines);
}

/** Where a case's title starts on its row (`pass     row 1  `), and a broken row's rest with it. */
const CASE_TITLE_COLUMN = 16;

/** What the boundary hid, counted: the operator's home, the others, the product home. */
function hiddenInWords(hidden: NonNullable<QualifyValue['hidden']>): string {
  const others = hidden.filter((entry) => entry.role === 'other-home').length;
  return [
    ...(hidden.some((entry) => entry.role === 'operator-home') ? ['your home'] : []),
    ...(others === 0 ? [] : [`${others} other ${others === 1 ? 'home' : 'homes'}`]),
    ...(hidden.some((entry) => entry.role === 'product-home') ? ['the product home'] : []),
  ].join(', ');
}

/** A case's line while it runs, and once it has ended (TTY only). */
export function renderCaseStarted(row: number, title: string): string {
  return clipped(`  …        row ${row}  ${title}`, WIDTH);
}

export function renderCaseEnded(row: number, title: string, status: 'pass' | 'fail' | 'not-run', evidence: string): string {
  return clipped(`  ${caseStatusLabel(status)}  row ${row}  ${title}  [${evidence}]`, WIDTH);
}
