import type { AllowanceSource } from './allowance.js';
import type { CommandReading } from './command-reading.js';
import type { CheckedCoverage, RecordedCoverage } from './coverage-record.js';

/**
 * Human lines for a recorded coverage (`run show`, a plan refusal). Both limits end every
 * rendering, whatever the verdict (R9.3).
 */
export function describeCoverage(coverage: RecordedCoverage): string[] {
  const limits = coverage.limits.map((limit) => `  limit: ${limit}`);
  if (coverage.verdict === 'not-checked') {
    return [`coverage: not-checked — ${coverage.reason}`, ...limits];
  }
  const readFrom = coverage.readFrom.kind === 'commit' ? `commit ${coverage.readFrom.commit}` : 'the working tree';
  const allowance = [
    `  allowance: ${
      coverage.allowance.entries.length === 0
        ? '(empty)'
        : coverage.allowance.entries.map((entry) => `${entry.program} (${entry.sources.map(describeSource).join(', ')})`).join(', ')
    }`,
    `  declaration: ${coverage.allowance.declaration.path} ${
      coverage.allowance.declaration.kind === 'declared' ? coverage.allowance.declaration.digest : 'absent'
    }`,
  ];
  if (coverage.verdict === 'not-applicable') {
    return [
      `coverage: not-applicable — the run has no spec and the declaration no acceptance checks, so no check commands were compared (read from ${readFrom})`,
      ...allowance,
      ...limits,
    ];
  }
  return [
    `coverage: ${coverage.verdict} — ${describeChecksSource(coverage)}, read from ${readFrom}`,
    `  suite plan: ${coverage.planDigest}`,
    ...(coverage.commands.length === 0 ? ['  commands: none (the Verification block is empty)'] : coverage.commands.map(describeCommand)),
    ...allowance,
    ...coverage.missing.map((missing) => `  missing: ${missing.program}, named by ${missing.commands.map((text) => `\`${text}\``).join(', ')}`),
    ...coverage.notChecked.map((text) => `  not checked: \`${text}\``),
    ...limits,
  ];
}

/** Whose commands were compared: the spec's, or the declaration's acceptance checks (R13.3). */
export function describeChecksSource(coverage: CheckedCoverage): string {
  if (coverage.spec === 'none') return `the acceptance checks of ${coverage.allowance.declaration.path} (the run has no spec)`;
  return `spec ${coverage.spec.id} (${coverage.spec.path})`;
}

function describeCommand(command: CommandReading): string {
  const text = `\`${command.text.replace(/\n/g, '\\n')}\``;
  if (command.kind === 'simple') return `  command ${text}: program ${command.program}`;
  if (command.kind === 'path') return `  command ${text}: path ${command.program} (no PATH lookup; what it runs is not seen)`;
  return `  command ${text}: unparsed, not checked (${command.reason})`;
}

function describeSource(source: AllowanceSource): string {
  return source.kind === 'adapter' ? 'adapter' : `declared ${source.digest.slice(0, 19)}`;
}
