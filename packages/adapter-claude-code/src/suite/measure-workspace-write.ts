import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AttemptResult, MeasurementContext, TokenMeasurement } from '@statecraft/adapter';
import type { LiveProvocations } from './measure-tokens.js';

/** The files the scenarios write (qualification/scenarios/write-answer, bash-write-inside, bash-write-outside). */
const WRITE_TOOL_FILE = 'answer.txt';
const BASH_INSIDE_FILE = 'statecraft-inside-marker.txt';
const BASH_OUTSIDE_FILE = 'statecraft-outside-marker.txt';

function ending(result: AttemptResult): string {
  return `outcome ${result.outcome}, ${result.refusalCount} refusal(s)`;
}

/**
 * `workspace-write` measured live (R10.5, R12): with no allow rule, the Write tool and a shell
 * redirection each create their file in the workspace (the adapter's `acceptEdits` inside the
 * boundary); with Bash allowed outright — so claude's own prompt is out of the way — a shell write
 * beside the workspace leaves no file (the boundary's read-only file system stops it). The files
 * are removed afterwards: the suite's workspace is shared by its rows.
 */
export async function measureWorkspaceWrite(context: MeasurementContext, provocations: LiveProvocations): Promise<TokenMeasurement> {
  const inside = (name: string) => join(context.workspace, name);
  const outside = join(dirname(context.workspace), BASH_OUTSIDE_FILE);
  try {
    const writeTool = (await context.provoke(provocations.live('write-answer', {}))).result;
    const wroteWithTool = existsSync(inside(WRITE_TOOL_FILE)) && writeTool.refusalCount === 0;
    const bashInside = (await context.provoke(provocations.live('bash-write-inside', {}))).result;
    const wroteWithBash = existsSync(inside(BASH_INSIDE_FILE)) && bashInside.refusalCount === 0;
    const bashOutside = (await context.provoke(provocations.live('bash-write-outside', { allow: ['Bash'] }))).result;
    const escaped = existsSync(outside);
    return {
      token: 'workspace-write',
      evidence: 'live',
      honored: wroteWithTool && wroteWithBash && !escaped,
      detail:
        `with no allow rule the Write tool ${wroteWithTool ? 'created' : 'did not create'} ${WRITE_TOOL_FILE} in the workspace (${ending(writeTool)}) ` +
        `and a shell redirection ${wroteWithBash ? 'created' : 'did not create'} ${BASH_INSIDE_FILE} there (${ending(bashInside)}); ` +
        `with Bash allowed, a shell write beside the workspace ${escaped ? `created ${outside}` : 'left no file'} (${ending(bashOutside)})`,
    };
  } finally {
    await Promise.all([inside(WRITE_TOOL_FILE), inside(BASH_INSIDE_FILE), outside].map((path) => rm(path, { force: true })));
  }
}
