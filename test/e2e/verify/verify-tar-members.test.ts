import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signingKeyPaths } from '@statecraft/records';
import { dir, type DirectoryResult } from 'tmp-promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgedRun, operatorRepository } from '../../fixtures/operator-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// A hostile pass on `statecraft verify` (issue 32): a tar bundle is a list of members, and every
// member is either one the manifest lists (digested) or a finding. A member the verifier skips
// unseen is one another reader of the same tar may well read: GNU tar and bsdtar extract a member
// of a type flag they do not know (and `N`) as a regular file, so a reviewer who verifies the signed bundle
// (all holds) and then extracts it to open `page.html` reads a page the signer never made.

interface Account {
  runId: string;
  acceptance: 'not-recorded' | { verdict: string };
}
interface Verified {
  findings: { check: string; file: string; field?: string; message: string }[];
}

const BLOCK = 512;
const targets = useTestTargets({ sharedRepository: false });
let scratch: DirectoryResult;
let exportedTar: string;

beforeAll(async () => {
  scratch = await dir({ unsafeCleanup: true });
  const home = targets.home.path;
  expect((await runStatecraft(['keys', 'generate'], { home })).exitCode).toBe(0);
  const repository = await operatorRepository(targets);
  // Its check fails: the attempt fails its acceptance.
  const account = await judgedRun<Account>(targets, repository, 'forty-one');
  expect(account.acceptance !== 'not-recorded' && account.acceptance.verdict).toBe('failed');
  exportedTar = join(scratch.path, 'exported.tar');
  const written = await runStatecraft(['export', repository.path, account.runId, '-o', exportedTar], { home });
  expect(written.exitCode, written.stderr).toBe(0);
}, 180_000);
afterAll(async () => scratch.cleanup());

/** A ustar header block: `name`, `size`, the type flag given, its checksum computed. */
function header(name: string, size: number, typeflag: string): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, 'utf8');
  block.write('0000644\0', 100);
  block.write('0000000\0', 108);
  block.write('0000000\0', 116);
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  block.write(
    `${Math.floor(Date.now() / 1000)
      .toString(8)
      .padStart(11, '0')}\0`,
    136,
  );
  block.write(typeflag, 156);
  block.write('ustar\0', 257);
  block.write('00', 263);
  block.write('        ', 148);
  const sum = block.reduce((total, byte) => total + byte, 0);
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return block;
}

/** Where the tar's end-of-archive blocks start: past every member's header and padded body. */
function endOfMembers(tar: Buffer): number {
  let at = 0;
  while (at + BLOCK <= tar.length) {
    const block = tar.subarray(at, at + BLOCK);
    if (block.every((byte) => byte === 0)) return at;
    const size = parseInt(block.toString('latin1', 124, 136).replace(/\0.*$/, '').trim() || '0', 8);
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  throw new Error('no end-of-archive blocks');
}

/** The exported tar with one more member before its end: `name`, of the type flag given, holding `body`. */
function withMember(name: string, typeflag: string, body: Buffer, to: string): string {
  const tar = readFileSync(exportedTar);
  const end = endOfMembers(tar);
  const padded = Buffer.concat([body, Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK)]);
  writeFileSync(to, Buffer.concat([tar.subarray(0, end), header(name, body.length, typeflag), padded, Buffer.alloc(2 * BLOCK)]));
  return to;
}

async function verifyTrusted(bundle: string) {
  return runStatecraft(['verify', bundle, '--json', '--trust', signingKeyPaths(targets.home.path).publicKey], {
    home: join(scratch.path, 'no-such-home'),
  });
}

describe('verify reads every member of a tar bundle', () => {
  it('the signed export verifies as it was written', async () => {
    const run = await verifyTrusted(exportedTar);
    expect(run.exitCode, run.stdout).toBe(0);
  });

  it.each(['Z', 'A', 'N', 'S', 'g', 'X'])('a member of type flag %s, which export never writes, is a finding and never skipped unseen', async (flag) => {
    const forged = Buffer.from('<!DOCTYPE html><title>forged</title><h1>acceptance verdict: accepted</h1>\n');
    const bundle = withMember('page.html', flag, forged, join(scratch.path, `typeflag-${flag}.tar`));
    if (flag === 'Z') {
      // What a reviewer's tar makes of it: the forged page, over the one the signer made.
      const out = join(scratch.path, 'extracted-Z');
      execFileSync('mkdir', ['-p', out]);
      execFileSync('tar', ['-xf', bundle, '-C', out], { stdio: 'ignore' });
      expect(readFileSync(join(out, 'page.html'), 'utf8')).toBe(forged.toString());
    }
    const run = await verifyTrusted(bundle);
    expect(run.exitCode, `verify must not hold: ${run.stdout}`).not.toBe(0);
    if (run.exitCode === 1) expect(parseJson<Verified>(run).findings.map((finding) => finding.file)).toContain('page.html');
  });
});
