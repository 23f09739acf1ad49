import { realpath } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { hashFile, readFileIdentity } from '@statecraft/adapter';
import { pinnedClaudePath } from '@statecraft/adapter-claude-code';
import { baseEnvironment, eventsOfType, runAdapter, sandboxMaker } from '../../fixtures/claude-code-adapter-process.js';

const makeSandbox = sandboxMaker();

// Issue 10 item 7: the supervisor hashed the provider at planning; the adapter is handed that
// digest instead of reading hundreds of megabytes again — but only while the file is the one
// the digest describes.
describe('the provider digest handed over in the request', () => {
  it('is used as the provider digest when the real path and file identity still match: the adapter does not hash', async () => {
    const sandbox = await makeSandbox();
    const path = await realpath(pinnedClaudePath());
    // A digest no hashing could produce: if the init carries it, the adapter took it as handed.
    const handed = { path, identity: await readFileIdentity(path), sha256: 'a'.repeat(64) };
    const run = await runAdapter({ sandbox, environment: baseEnvironment(sandbox), knownDigests: [handed] });
    expect(eventsOfType(run, 'init')[0]?.provider).toMatchObject({ name: 'claude', digest: `sha256:${'a'.repeat(64)}` });
  });

  it('is ignored when the file identity differs (the binary changed since), and the adapter hashes the file itself', async () => {
    const sandbox = await makeSandbox();
    const path = await realpath(pinnedClaudePath());
    const identity = await readFileIdentity(path);
    const moved = { ...identity, changedNs: (BigInt(identity.changedNs) + 1n).toString() };
    const run = await runAdapter({ sandbox, environment: baseEnvironment(sandbox), knownDigests: [{ path, identity: moved, sha256: 'a'.repeat(64) }] });
    expect(eventsOfType(run, 'init')[0]?.provider).toMatchObject({ digest: `sha256:${(await hashFile(path)).sha256}` });
  });
});
