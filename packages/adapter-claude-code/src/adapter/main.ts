/**
 * The Claude Code adapter executable (bundled into one file): `run --request <file>`, the prompt
 * on stdin, protocol events on stdout (R1.2). Usage errors go to stderr with exit status 3;
 * everything after the request is read is spoken in the protocol.
 */
// First: schemas are built as their modules load, and this setting is read when they are.
import './jitless-schemas.js';
import { resolve } from 'node:path';
import { CLAUDE_CODE_MANIFEST } from '../manifest.js';
import { runDenyUnseenHook } from './deny-unseen-hook.js';
import { EventWriter } from './event-writer.js';
import { startSession } from './start-session.js';

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function main(argv: string[]): Promise<number> {
  const [verb, flag, requestPath, ...rest] = argv;
  // The PreToolUse hook the settings document names while deny rules exist (deny-unseen-hook.ts).
  if (verb === 'hook' && flag === '--deny-unseen' && requestPath === undefined) return runDenyUnseenHook(await readStdin());
  if (verb !== 'run' || flag !== '--request' || requestPath === undefined || rest.length > 0) {
    process.stderr.write('usage: statecraft-adapter-claude-code run --request <file>   (the prompt on stdin)\n');
    return 3;
  }
  const prompt = await readStdin();
  // This very file: its hook verb is what the settings document runs (a CommonJS bundle, argv[1] its path).
  return startSession(CLAUDE_CODE_MANIFEST, requestPath, prompt, new EventWriter(), resolve(process.argv[1] ?? ''));
}

// No top-level await: the bundle is a CommonJS script (paths.ts).
void main(process.argv.slice(2)).then((exitCode) => {
  process.exitCode = exitCode;
});
