import type { CheckValue, ListValue, ShowValue } from './qualifications.js';
import { caseStatusLabel } from '../render/case-status.js';
import { describeProviderIdentity } from '../render/provider-identity.js';
import type { HumanLines } from '../render/human-lines.js';

export function renderList(value: ListValue): HumanLines {
  const lines: string[] = [];
  if (value.records.length === 0) {
    lines.push(`no qualification records in ${value.home}/qualifications`, '  qualify an adapter with: statecraft qualify <binary>  (or --fixture)');
  }
  for (const entry of value.records) {
    const provider = entry.provider === 'none' ? '' : `  with ${entry.provider.name} ${entry.provider.version}`;
    lines.push(
      `${entry.id}`,
      `  ${entry.adapter.name} ${entry.adapter.version}${provider}  ${entry.suiteVersion}  ${entry.cases.passed}/${entry.cases.total} passed  ${entry.date}  ${entry.platform.os}/${entry.platform.arch}`,
    );
  }
  for (const bad of value.unreadable) lines.push(`unreadable: ${bad.message}`);
  return lines;
}

export function renderShow(value: ShowValue): HumanLines {
  const { record } = value;
  const lines = [
    `record    ${record.id}  (${value.path})`,
    `adapter   ${record.adapter.name} ${record.adapter.version}  ${record.adapter.digest}`,
    `manifest  ${record.adapter.manifestDigest === 'not-recorded' ? 'not-recorded (qualified before manifests were bound)' : record.adapter.manifestDigest}`,
    `provider  ${record.provider === 'none' ? 'none' : `${record.provider.name} ${record.provider.version}  ${record.provider.digest}`}`,
    ...(record.provider === 'none' ? [] : record.provider.identityFiles.map((file) => `  identity file ${file.file}  ${file.digest}`)),
    `suite     ${record.suiteVersion}  protocol ${record.protocol}  driver ${record.driver}`,
    `platform  ${record.platform.os}/${record.platform.arch}  node ${record.platform.node}`,
    `date      ${record.date}`,
    '',
  ];
  for (const entry of record.cases) {
    lines.push(`${caseStatusLabel(entry.status)}  row ${entry.row}  ${entry.title}  [${entry.evidence}]`, `           ${entry.detail}`);
  }
  return lines;
}

export function renderCheck(value: CheckValue): HumanLines {
  return [
    `${value.verdict}: ${value.adapter.name} ${value.adapter.version}  ${value.adapter.digest}`,
    `  manifest ${value.manifest.path}  ${value.manifest.digest}`,
    ...(value.provider === 'none'
      ? []
      : [
          `  provider ${value.provider.executable}  ${value.provider.digest}`,
          `    ${describeProviderIdentity(value.provider.identity, value.provider.digest)}`,
        ]),
    `  ${value.reason}`,
  ];
}
