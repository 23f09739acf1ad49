import type { HumanLines } from '../render/human-lines.js';
import type { RunReconcileValue } from './run-reconcile.js';
import { lostWorkspaceGitNote } from './workspace-git-note.js';

/** `run reconcile` for a person: each attempt closed, at which lines, with what evidence; or that none dangled. */
export function renderReconciliation(value: RunReconcileValue): HumanLines {
  if (value.reconciled.length === 0) return [`${value.target}: no dangling intent in ${value.chain}; nothing appended`];
  const count = value.reconciled.length;
  const lines = [`${value.target}: ${count} dangling intent${count === 1 ? '' : 's'} concluded interrupted (supervisor-lost) in ${value.chain}:`];
  for (const closed of value.reconciled) {
    const missing = [...(closed.stream === 'kept' ? [] : ['no stream']), ...(closed.stderr === 'kept' ? [] : ['no stderr'])];
    const evidence = missing.length === 0 ? 'its kept stream and stderr sealed' : `${missing.join(', ')} found`;
    const survivors =
      closed.survivors.length === 0
        ? ''
        : `; process${closed.survivors.length === 1 ? '' : 'es'} ${closed.survivors.join(', ')} of it still running (recorded, not killed)`;
    lines.push(
      `  run ${closed.runId} attempt ${closed.attempt}: intent line ${closed.intentLine}, outcome line ${closed.outcomeLine}; ${evidence}${survivors}`,
    );
    lines.push(...lostWorkspaceGitNote(closed.workspaceGit).map((line) => `    ${line}`));
  }
  lines.push(`see: statecraft run show ${value.target} <run-id>`);
  return lines;
}
