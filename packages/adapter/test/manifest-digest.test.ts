import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManifest } from '@statecraft/adapter';
import { fixtureManifest, freshDirectory } from '../../run/test/suite-helpers.js';

// A qualification binds the manifest the suite ran with (R2.2, R3.1), by the digest of its
// canonical JSON: what the supervisor acts on, not how the file is laid out.

async function digestOf(text: string): Promise<string> {
  const path = join(freshDirectory('statecraft-manifest-digest'), 'adapter.manifest.json');
  writeFileSync(path, text);
  const reading = await readManifest(path);
  if (reading.kind !== 'read') throw new Error(reading.message);
  return reading.digest;
}

describe("a manifest's digest", () => {
  it('is the same for the same manifest re-indented with its keys in another order', async () => {
    const manifest = fixtureManifest();
    const reordered = Object.fromEntries(Object.entries(manifest).reverse());
    const laidOut = await digestOf(JSON.stringify(manifest, null, 2));
    expect(laidOut).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await digestOf(JSON.stringify(reordered))).toBe(laidOut);
  });

  it('differs when what the supervisor reads differs: a token, a managed path, a name passed', async () => {
    const manifest = fixtureManifest();
    const original = await digestOf(JSON.stringify(manifest));
    const changes = [
      { ...manifest, capabilities: (manifest.capabilities as string[]).slice(1) },
      { ...manifest, managedPaths: ['~/.aws'] },
      { ...manifest, environment: { pass: [{ name: 'DATABASE_URL', secret: false, why: 'added after qualification' }] } },
    ];
    for (const changed of changes) expect(await digestOf(JSON.stringify(changed))).not.toBe(original);
  });
});
