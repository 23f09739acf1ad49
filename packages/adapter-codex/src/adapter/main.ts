/**
 * The Codex adapter executable (bundled into one file): `run --request <file>`, the prompt on
 * stdin, protocol events on stdout (R1.2). Usage errors go to stderr with exit status 3; everything
 * after the request is read is spoken in the protocol. Its second verb, `hook --policy <encoded>`,
 * is the PreToolUse hook the adapter installs in Codex's config: the same file, so the content
 * digest of the adapter covers the code that denies (R3.1).
 */
import { fileURLToPath } from 'node:url';
import { EventWriter } from '@statecraft/adapter';
import { CODEX_MANIFEST } from '../manifest.js';
import { runPreToolUseHook } from './pre-tool-use-hook.js';
import { startSession } from './start-session.js';

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const USAGE = 'usage: statecraft-adapter-codex run --request <file>   (the prompt on stdin)\n';

async function main(argv: string[]): Promise<number> {
  const [verb, flag, value, ...rest] = argv;
  if (verb === 'hook' && flag === '--policy' && value !== undefined && rest.length === 0) return runPreToolUseHook(value, await readStdin());
  if (verb !== 'run' || flag !== '--request' || value === undefined || rest.length > 0) {
    process.stderr.write(USAGE);
    return 3;
  }
  const prompt = await readStdin();
  return startSession(CODEX_MANIFEST, value, prompt, new EventWriter(), fileURLToPath(import.meta.url));
}

process.exitCode = await main(process.argv.slice(2));
