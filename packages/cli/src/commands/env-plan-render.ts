import { describeBoundaryAvailability } from './boundary-availability-render.js';
import type { EnvPlanValue, PlannedAdapter } from './env-plan.js';
import { describePlacedName } from '../render/placed-name.js';
import { describeProviderIdentity } from '../render/provider-identity.js';
import type { HumanLines } from '../render/human-lines.js';
import { fitRows, shortDigest, shortDigests } from '../render/terminal-width.js';

function renderAdapter(adapter: PlannedAdapter): string[] {
  const lines = [`adapter   ${adapter.name} ${adapter.version}  ${adapter.executable}`];
  lines.push(`  managed paths  ${adapter.managedPaths.length === 0 ? 'none declared' : adapter.managedPaths.join(', ')}`);
  if (adapter.exposed.length > 0) lines.push(`  exposed        ${adapter.exposed.map((entry) => entry.path).join(', ')} (read-only)`);
  lines.push(`  provider       ${adapter.provider === 'none' ? 'none found' : `${adapter.provider.executable}  ${shortDigest(adapter.provider.digest)}`}`);
  if (adapter.provider !== 'none') lines.push(`                 ${describeProviderIdentity(adapter.provider.identity, adapter.provider.digest)}`);
  lines.push(`  qualification  ${adapter.qualification.verdict}: ${shortDigests(adapter.qualification.reason)}`);
  for (const check of adapter.prerequisites) lines.push(`  ${check.state === 'present' ? 'present' : 'ABSENT '}        ${check.detail}`);
  const names = adapter.environment.names.map((entry) => describePlacedName(entry, '(secret, redacted)'));
  lines.push(
    `  child env      ${names.join(', ') || 'nothing'}${adapter.environment.absent.length > 0 ? `; absent: ${adapter.environment.absent.map((entry) => entry.name).join(', ')}` : ''}`,
  );
  lines.push(`  allowance      ${adapter.allowance.join(', ') || 'none'} (compared, not enforced)`);
  lines.push(
    adapter.claim.kind === 'claimed'
      ? `  claims         ${adapter.claim.paths.join(', ') || 'nothing to claim'}`
      : `  claims nothing: ${adapter.claim.message}`,
  );
  if (adapter.managedPathCheck.verdict === 'refused') lines.push(`  REFUSED        ${adapter.managedPathCheck.message}`);
  return lines;
}

/** The human rendering of `env plan`: the same value as `--json` (R11). */
export function renderEnvPlan(value: EnvPlanValue): HumanLines {
  const lines = [
    `target    ${value.target}`,
    `declared  ${value.declaration === 'none' ? 'no .statecraft/environment.json' : `${value.declaration.path}: ${value.declaration.commands.join(', ') || 'no commands'}`}`,
  ];
  if (value.verdict === 'refused') {
    // A collision claims nothing to show; a managed path a launch would refuse is shown on its adapter.
    for (const adapter of value.adapters) lines.push('', ...renderAdapter(adapter));
    lines.push(...(value.adapters.length > 0 ? [''] : []), `refused   ${value.message}`);
  } else {
    for (const adapter of value.adapters) lines.push('', ...renderAdapter(adapter));
    lines.push('', value.verdict === 'claimed' ? 'every adapter may claim its managed paths' : `not claimed: ${value.message}`);
  }
  lines.push(describeBoundaryAvailability(value.boundary));
  const yours = value.homes.hidden.find((entry) => entry.role === 'operator-home');
  const others = value.homes.hidden.filter((entry) => entry.role !== 'operator-home').map((entry) => entry.path);
  lines.push(`hidden    ${[...(yours === undefined ? [] : [`${yours.path} (your home, an empty writable tmpfs)`]), ...others].join(', ') || 'no home'}`);
  lines.push(`exposed   ${value.homes.exposed.map((entry) => entry.path).join(', ') || 'nothing of the homes'} (read-only; run --expose <path> adds more)`);
  lines.push('wrote nothing');
  return fitRows(lines);
}
