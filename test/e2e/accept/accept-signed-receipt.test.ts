import { createHash, createPublicKey } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { bundleFromJSON } from '@sigstore/bundle';
import { toSignedEntity, toTrustMaterial, Verifier } from '@sigstore/verify';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { createProductHome, useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// With a signing key, `run --accept` keeps beside the receipt its signature: receipt.sigstore.json,
// an in-toto statement (subject: the candidate's commit and tree; predicate: the receipt) in a
// DSSE envelope, carried as a Sigstore bundle v0.3 with the key's id as its public-key hint. It is
// checked here with Sigstore's own verifier, given only the public key `keys show` prints — not
// through statecraft's code. The acceptance record binds the signature's digest like the
// receipt's; doctor reads it as recorded, and a changed or missing one is its finding.

const targets = useTestTargets({ sharedRepository: false });

interface Kept {
  path: string;
  sha256: string;
  bytes: number;
}
interface Account {
  runId: string;
  records: { chain: string };
  acceptance: { verdict: string; receiptFile: Kept | 'none'; receiptSignature?: Kept; candidate: { commit: string; tree: string } };
}
interface Finding {
  kind: string;
  path: string;
  message: string;
}

/** Sigstore's verifier over trust material made of this one public key: no root, no log, no timestamp authority. */
function sigstoreVerify(bundleText: string, publicKeyPem: string, keyId: string) {
  const publicKey = createPublicKey(publicKeyPem);
  const root = {
    mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
    tlogs: [],
    certificateAuthorities: [],
    ctlogs: [],
    timestampAuthorities: [],
  };
  const trust = toTrustMaterial(root, (hint) => {
    if (hint !== keyId) throw new Error(`unknown key ${hint}`);
    return { publicKey, validFor: () => true };
  });
  const bundle = bundleFromJSON(JSON.parse(bundleText));
  new Verifier(trust, { tlogThreshold: 0, ctlogThreshold: 0, timestampThreshold: 0 }).verify(toSignedEntity(bundle));
  return bundle;
}

async function signedAcceptance(home: string) {
  const repository = await repositoryWithSuite(targets, { checks: ['grep -q forty-two answer.txt'] });
  const ran = await runStatecraft(
    ['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', 'forty-two'), '--accept', '--json'],
    {
      home,
      timeoutMs: 120_000,
    },
  );
  expect(ran.exitCode, ran.stderr).toBe(0);
  return parseJson<Account>(ran);
}

describe('a receipt signed with the operator key, in the ecosystem format', () => {
  it('run --accept leaves receipt.sigstore.json, which @sigstore/verify verifies with the public key; subject and predicate are the candidate and the receipt', async () => {
    const home = (await createProductHome()).path;
    const key = parseJson<{ keyId: string; publicKey: string }>(await runStatecraft(['keys', 'generate', '--json'], { home }));
    const account = await signedAcceptance(home);
    expect(account.acceptance.verdict).toBe('accepted');
    const receiptFile = account.acceptance.receiptFile;
    if (receiptFile === 'none') throw new Error('no receipt');
    const signature = account.acceptance.receiptSignature;
    expect(signature?.path).toBe(join(dirname(receiptFile.path), 'receipt.sigstore.json'));
    const bundleText = readFileSync(signature?.path ?? '', 'utf8');
    // The chain binds the signature's bytes, as it binds the receipt's.
    expect(signature?.sha256).toBe(createHash('sha256').update(bundleText).digest('hex'));

    const bundleJson = JSON.parse(bundleText) as Record<string, unknown>;
    expect(bundleJson['mediaType']).toBe('application/vnd.dev.sigstore.bundle.v0.3+json');
    expect(bundleJson['verificationMaterial']).toMatchObject({ publicKey: { hint: key.keyId } });
    expect(bundleJson['verificationMaterial']).not.toHaveProperty('certificate');
    expect((bundleJson['verificationMaterial'] as { tlogEntries?: unknown[] }).tlogEntries ?? []).toEqual([]);
    const bundle = sigstoreVerify(bundleText, key.publicKey, key.keyId);
    if (bundle.content.$case !== 'dsseEnvelope') throw new Error('not a DSSE bundle');
    expect(bundle.content.dsseEnvelope.payloadType).toBe('application/vnd.in-toto+json');
    const statement = JSON.parse(bundle.content.dsseEnvelope.payload.toString('utf8')) as {
      _type: string;
      subject: { name: string; digest: Record<string, string> }[];
      predicateType: string;
      predicate: unknown;
    };
    const receipt = JSON.parse(readFileSync(receiptFile.path, 'utf8')) as { signature: string; candidate: { commit: string; tree: string } };
    expect(statement._type).toBe('https://in-toto.io/Statement/v1');
    expect(statement.predicateType).toBe('https://statecraft.dev/receipt/v1');
    expect(statement.subject).toEqual([
      { name: 'candidate-commit', digest: { gitCommit: account.acceptance.candidate.commit } },
      { name: 'candidate-tree', digest: { gitTree: account.acceptance.candidate.tree } },
    ]);
    expect(receipt.candidate).toMatchObject({ commit: account.acceptance.candidate.commit, tree: account.acceptance.candidate.tree });
    expect(statement.predicate).toEqual(receipt);
    expect(receipt.signature).toBe('sigstore-bundle');

    // Another key does not verify it, whatever the hint says.
    const other = parseJson<{ publicKey: string }>(await runStatecraft(['keys', 'generate', '--json'], { home: (await createProductHome()).path }));
    expect(() => sigstoreVerify(bundleText, other.publicKey, key.keyId)).toThrow();

    // doctor reads the signature as recorded: no finding of it.
    const clean = await runStatecraft(['doctor', '--json'], { home });
    const findings = parseJson<{ findings: Finding[] }>(clean).findings;
    expect(findings.filter((finding) => finding.path.includes(dirname(receiptFile.path)) || finding.message.includes('sigstore'))).toEqual([]);
  });

  it('a changed or missing signature is a doctor finding naming it', async () => {
    const home = (await createProductHome()).path;
    expect((await runStatecraft(['keys', 'generate'], { home })).exitCode).toBe(0);
    const account = await signedAcceptance(home);
    const path = account.acceptance.receiptSignature?.path ?? '';
    const bytes = readFileSync(path, 'utf8');
    writeFileSync(path, bytes.replace('"sig": "M', '"sig": "N'));
    const altered = await runStatecraft(['doctor', '--json'], { home });
    expect(altered.exitCode).toBe(1);
    expect(parseJson<{ findings: Finding[] }>(altered).findings).toContainEqual(expect.objectContaining({ kind: 'altered-acceptance-evidence', path }));
    rmSync(path);
    const missing = await runStatecraft(['doctor', '--json'], { home });
    expect(missing.exitCode).toBe(1);
    const found = parseJson<{ findings: Finding[] }>(missing).findings.filter((finding) => finding.path === path);
    expect(found).toEqual([expect.objectContaining({ kind: 'altered-acceptance-evidence' })]);
    expect(found[0]?.message).toContain('receipt.sigstore.json');
  });

  it('without a key the receipt is unsigned and nothing is kept beside it', async () => {
    const home = (await createProductHome()).path;
    const account = await signedAcceptance(home);
    const receiptFile = account.acceptance.receiptFile;
    if (receiptFile === 'none') throw new Error('no receipt');
    expect(account.acceptance.receiptSignature).toBeUndefined();
    expect(existsSync(join(dirname(receiptFile.path), 'receipt.sigstore.json'))).toBe(false);
    expect((JSON.parse(readFileSync(receiptFile.path, 'utf8')) as { signature: string }).signature).toBe('unsigned');
  });
});
