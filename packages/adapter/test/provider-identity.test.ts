import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { digestFile, identifyProvider, ProviderIdentityFileSchema, sha256Hex, type ProviderIdentityFile } from '@statecraft/adapter';
import { freshDirectory } from '../../run/test/suite-helpers.js';

// The provider's identity (R3.1): its executable's bytes, combined with each identity file its
// adapter's manifest declares — a native binary behind a launcher whose own bytes never change.

const HERE = { os: 'linux', arch: 'x64' };

function declared(file = 'vendor/bin/native', pkg = '@vendor/native-linux-x64'): ProviderIdentityFile {
  return { kind: 'node-package-file', os: HERE.os, arch: HERE.arch, package: pkg, file };
}

function write(path: string, text: string, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text, { mode });
}

/** `<root>/node_modules`: a launcher package linked from `.bin`, and the package holding its native binary beside it. */
function install(root = freshDirectory('statecraft-provider-install')) {
  const nodeModules = join(root, 'node_modules');
  write(join(nodeModules, '@vendor/launcher/package.json'), '{"name":"@vendor/launcher"}');
  write(join(nodeModules, '@vendor/launcher/bin/launch.js'), '#!/usr/bin/env node\n', 0o755);
  write(join(nodeModules, '@vendor/native-linux-x64/package.json'), '{"name":"@vendor/native"}');
  write(join(nodeModules, '@vendor/native-linux-x64/vendor/bin/native'), 'native binary, release 1\n', 0o755);
  mkdirSync(join(nodeModules, '.bin'));
  symlinkSync('../@vendor/launcher/bin/launch.js', join(nodeModules, '.bin', 'launch'));
  return { nodeModules, bin: join(nodeModules, '.bin', 'launch'), native: join(nodeModules, '@vendor/native-linux-x64/vendor/bin/native') };
}

async function identify(executable: string, files: ProviderIdentityFile[] | undefined) {
  return identifyProvider({ executable, executableDigest: await digestFile(executable), declared: files, platform: HERE });
}

describe("a provider's identity (R3.1)", () => {
  it("is the executable's own digest when the manifest declares no identity file", async () => {
    const { bin } = install();
    expect(await identify(bin, undefined)).toEqual({ kind: 'identified', digest: await digestFile(bin), files: [] });
  });

  it('binds the declared file as the launcher finds it, in a stated text, and changes when only that file changes', async () => {
    const { bin, native } = install();
    const first = await identify(bin, [declared()]);
    const launcherDigest = await digestFile(bin);
    const nativeDigest = await digestFile(native);
    const text = `statecraft provider identity 1\nexecutable ${launcherDigest}\n@vendor/native-linux-x64/vendor/bin/native ${nativeDigest}\n`;
    expect(first).toEqual({
      kind: 'identified',
      digest: `sha256:${sha256Hex(text)}`,
      files: [{ file: '@vendor/native-linux-x64/vendor/bin/native', path: native, digest: nativeDigest }],
    });
    write(native, 'native binary, release 2\n', 0o755);
    const second = await identify(bin, [declared()]);
    expect(await digestFile(bin)).toBe(launcherDigest);
    expect(second.kind === 'identified' && second.digest).not.toBe(first.kind === 'identified' && first.digest);
  });

  it("is the same for the same bytes installed elsewhere: the install's path is not part of it", async () => {
    const one = install();
    const other = install();
    expect(await identify(other.bin, [declared()])).toEqual({
      ...(await identify(one.bin, [declared()])),
      files: [expect.objectContaining({ path: other.native })],
    });
  });

  it("finds a package nested in the launcher's own node_modules before one beside it, as Node's lookup does", async () => {
    const { nodeModules, bin } = install();
    const nested = join(nodeModules, '@vendor/launcher/node_modules/@vendor/native-linux-x64');
    write(join(nested, 'package.json'), '{"name":"@vendor/native"}');
    write(join(nested, 'vendor/bin/native'), 'the nested one\n', 0o755);
    const identity = await identify(bin, [declared()]);
    expect(identity.kind === 'identified' && identity.files[0]?.path).toBe(join(nested, 'vendor/bin/native'));
  });

  it('cannot identify a provider whose declared file is missing, whose package is not installed, or with no declaration for this platform', async () => {
    const { bin, native } = install();
    expect(await identify(bin, [declared('vendor/bin/absent')])).toEqual({
      kind: 'unidentifiable',
      message: expect.stringContaining(`the declared identity file ${dirname(native)}/absent cannot be read (ENOENT)`) as string,
    });
    expect(await identify(bin, [declared('vendor/bin/native', '@vendor/not-installed')])).toEqual({
      kind: 'unidentifiable',
      message: expect.stringContaining(
        'the package @vendor/not-installed (holding the declared identity file vendor/bin/native) is in no node_modules directory above',
      ) as string,
    });
    expect(await identify(bin, [{ ...declared(), os: 'elsewhere' }])).toEqual({
      kind: 'unidentifiable',
      message: expect.stringContaining('its identity files are declared for elsewhere/x64, not for linux/x64') as string,
    });
  });

  it('is declared only as a path inside its package: a path leaving it, or an absolute one, is not a manifest', () => {
    for (const file of ['../other/native', 'vendor/../../native', '/usr/bin/native', 'vendor//native', './native'])
      expect(ProviderIdentityFileSchema.safeParse(declared(file)).success, file).toBe(false);
    expect(ProviderIdentityFileSchema.safeParse(declared('vendor/bin/native')).success).toBe(true);
  });
});
