import { dirname } from 'node:path';
import type { CheckValue, ListValue, ShowValue } from './qualifications.js';
import { caseStatusLabel } from '../render/case-status.js';
import { describeProviderIdentity } from '../render/provider-identity.js';
import type { HumanLines } from '../render/human-lines.js';
import { fitRows, fitToWidth, shortDigest, shortDigests } from '../render/terminal-width.js';

export function renderList(value: ListValue): HumanLines {
  const lines: string[] = [];
  if (value.records.length === 0) {
    lines.push(`no qualification records in ${value.home}/qualifications`, '  qualify an adapter with: statecraft qualify <binary>  (or --fixture)');
  }
  for (const entry of value.records) {
    const provider = entry.provider === 'none' ? '' : `  with ${entry.provider.name} ${entry.provider.version}`;
    lines.push(
      `${entry.id}`,
      `  ${entry.adapter.name} ${entry.adapter.version}${provider}  ${entry.suiteVersion}  ${entry.cases.passed}/${entry.cases.total} passed  ${entry.date.slice(0, 16).replace('T', ' ')}  ${entry.platform.os}/${entry.platform.arch}`,
    );
  }
  for (const bad of value.unreadable) lines.push(`unreadable: ${bad.message}`);
  return fitRows(lines);
}

export function renderShow(value: ShowValue): HumanLines {
  const { record } = value;
  const lines = [
    `record    ${record.id}`,
    `          in ${dirname(value.path)}`,
    `adapter   ${record.adapter.name} ${record.adapter.version}  ${shortDigest(record.adapter.digest)}`,
    `manifest  ${record.adapter.manifestDigest === 'not-recorded' ? 'not-recorded (qualified before manifests were bound)' : shortDigest(record.adapter.manifestDigest)}`,
    `provider  ${record.provider === 'none' ? 'none' : `${record.provider.name} ${record.provider.version}  ${shortDigest(record.provider.digest)}`}`,
    ...(record.provider === 'none' ? [] : record.provider.identityFiles.map((file) => `  identity file  ${file.file}  ${shortDigest(file.digest)}`)),
    `suite     ${record.suiteVersion}  protocol ${record.protocol}  driver ${record.driver}`,
    `platform  ${record.platform.os}/${record.platform.arch}  node ${record.platform.node}`,
    `date      ${record.date}`,
    '',
  ];
  const cases = record.cases.flatMap((entry) =>
    fitToWidth(
      [`${caseStatusLabel(entry.status)}  row ${entry.row}  ${entry.title}  [${entry.evidence}]`, `${' '.repeat(CASE_TITLE_COLUMN)}${entry.detail}`],
      CASE_TITLE_COLUMN,
    ),
  );
  return [...fitRows(lines), ...cases, '', 'every digest whole: --json'];
}

export function renderCheck(value: CheckValue): HumanLines {
  return fitRows([
    `${value.verdict}: ${value.adapter.name} ${value.adapter.version}  ${shortDigest(value.adapter.digest)}`,
    `  manifest  ${value.manifest.path}  ${shortDigest(value.manifest.digest)}`,
    ...(value.provider === 'none'
      ? []
      : [
          `  provider  ${value.provider.executable}  ${shortDigest(value.provider.digest)}`,
          `    ${describeProviderIdentity(value.provider.identity, value.provider.digest)}`,
        ]),
    `  ${shortDigests(value.reason)}`,
  ]);
}

/** Where a case's title starts on its row (`pass     row 1  `), and a broken row's rest with it. */
const CASE_TITLE_COLUMN = 16;
