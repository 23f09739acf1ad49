import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, rowsRejoined, runStatecraft } from '../../fixtures/statecraft-cli.js';

// With a signing key, `qualify` signs its record (<id>.sigstore.json beside it: an in-toto
// statement whose subject is the adapter's digest and whose predicate is the record). Where trust
// is configured (--trust, STATECRAFT_TRUSTED_KEYS), `qualifications check` and `run`'s label
// believe only a record a trusted key signed: a forged unsigned record, one signed by another key
// and one whose bytes were changed after signing all read `unqualified`, saying why. Without
// trust, a matching record qualifies as before and the reason says whether it is signed.

const fixture = fileURLToPath(new URL('../../../packages/adapter/fixture/statecraft-fixture-adapter', import.meta.url));
const scratch = scratchDirectories();
const targets = useTestTargets({ sharedRepository: false });

interface Qualified {
  home: string;
  keyId: string;
  publicKeyFile: string;
  record: { id: string; path: string; signature?: { path: string; keyId: string } };
}
interface CheckDocument {
  verdict: string;
  reason: string;
  record: { id: string } | null;
  signature?: { status: string; keyId?: string; reason?: string };
  trustedKeys?: string[];
}

/** A product home with a key of its own, where the fixture was qualified (signed). */
async function qualifiedWithKey(): Promise<Qualified> {
  const home = await scratch.make('statecraft-signed-home');
  const key = parseJson<{ keyId: string; publicKey: string }>(await runStatecraft(['keys', 'generate', '--json'], { home }));
  const publicKeyFile = join(await scratch.make('statecraft-trusted-keys'), 'key.pub');
  writeFileSync(publicKeyFile, key.publicKey);
  const qualified = await runStatecraft(['qualify', '--fixture', '--json'], { home, timeoutMs: 600_000 });
  expect(qualified.exitCode, qualified.stderr).toBe(0);
  const { record } = parseJson<{ record: Qualified['record'] }>(qualified);
  return { home, keyId: key.keyId, publicKeyFile, record };
}

/** A home holding copies of the given files in its qualifications/. */
async function homeWith(files: { from: string; name: string; edit?: (text: string) => string }[]): Promise<string> {
  const home = await scratch.make('statecraft-copied-home');
  mkdirSync(join(home, 'qualifications'));
  for (const { from, name, edit } of files) {
    if (edit === undefined) copyFileSync(from, join(home, 'qualifications', name));
    else writeFileSync(join(home, 'qualifications', name), edit(readFileSync(from, 'utf8')));
  }
  return home;
}

const check = async (home: string, ...extra: string[]) => {
  const ran = await runStatecraft(['qualifications', 'check', fixture, '--json', ...extra], { home });
  return { exitCode: ran.exitCode, document: parseJson<CheckDocument>(ran), stderr: ran.stderr };
};

let ours: Qualified;
let theirs: Qualified;
beforeAll(async () => {
  ours = await qualifiedWithKey();
  theirs = await qualifiedWithKey();
}, 1_200_000);

describe('signed qualification records, and trust', () => {
  it('a signature is never shown as a record: `qualifications show <id>.sigstore` is a usage error naming it', async () => {
    const shown = await runStatecraft(['qualifications', 'show', `${ours.record.id}.sigstore`, '--json'], { home: ours.home });
    expect(shown.exitCode, shown.stderr).toBe(3);
    expect(parseJson<{ usage: { message: string } }>(shown).usage.message).toContain('names the signature beside a record, not a record');
    expect((await runStatecraft(['qualifications', 'show', ours.record.id, '--json'], { home: ours.home })).exitCode).toBe(0);
  });

  it('qualify signs its record beside it: an in-toto statement over the adapter digest, the record its predicate', () => {
    const signature = ours.record.signature;
    expect(signature).toEqual({ path: join(ours.home, 'qualifications', `${ours.record.id}.sigstore.json`), keyId: ours.keyId });
    const bundle = JSON.parse(readFileSync(signature?.path ?? '', 'utf8')) as {
      mediaType: string;
      verificationMaterial: { publicKey: { hint: string } };
      dsseEnvelope: { payloadType: string; payload: string };
    };
    expect(bundle.mediaType).toBe('application/vnd.dev.sigstore.bundle.v0.3+json');
    expect(bundle.verificationMaterial.publicKey.hint).toBe(ours.keyId);
    expect(bundle.dsseEnvelope.payloadType).toBe('application/vnd.in-toto+json');
    const statement = JSON.parse(Buffer.from(bundle.dsseEnvelope.payload, 'base64').toString('utf8')) as {
      predicateType: string;
      subject: { name: string; digest: { sha256: string } }[];
      predicate: unknown;
    };
    const record = JSON.parse(readFileSync(ours.record.path, 'utf8')) as { adapter: { digest: string } };
    expect(statement.predicateType).toBe('https://statecraft.dev/qualification/v1');
    expect(statement.subject[0]?.digest.sha256).toBe(record.adapter.digest.replace('sha256:', ''));
    expect(statement.predicate).toEqual(record);
  });

  it('without trust, a matching record qualifies and the reason says who signed it; the list does not read the signature as a record', async () => {
    const { exitCode, document } = await check(ours.home);
    expect(exitCode).toBe(0);
    expect(document).toMatchObject({ verdict: 'qualified', signature: { status: 'untrusted', keyId: ours.keyId }, trustedKeys: [] });
    expect(document.reason).toContain(`signed by key ${ours.keyId}`);
    const listed = await runStatecraft(['qualifications', 'list', '--json'], { home: ours.home });
    expect(listed.exitCode, listed.stdout).toBe(0);
    const unsigned = await check(await homeWith([{ from: ours.record.path, name: `${ours.record.id}.json` }]));
    expect(unsigned.document).toMatchObject({ verdict: 'qualified', signature: { status: 'unsigned' } });
    expect(unsigned.document.reason).toContain('the record is unsigned');
  });

  it('--trust: the record the trusted key signed qualifies; so does STATECRAFT_TRUSTED_KEYS', async () => {
    const trusted = await check(ours.home, '--trust', ours.publicKeyFile);
    expect(trusted.exitCode, trusted.stderr).toBe(0);
    expect(trusted.document).toMatchObject({ verdict: 'qualified', signature: { status: 'verified', keyId: ours.keyId }, trustedKeys: [ours.keyId] });
    const ran = await runStatecraft(['qualifications', 'check', fixture, '--json'], { home: ours.home, env: { STATECRAFT_TRUSTED_KEYS: ours.publicKeyFile } });
    expect(ran.exitCode).toBe(0);
    expect(parseJson<CheckDocument>(ran).signature).toEqual({ status: 'verified', keyId: ours.keyId });
  });

  it.each([
    ['a forged unsigned record', 'unsigned', /the record is unsigned/],
    ['a record signed by another key', 'untrusted', /signed by key [0-9a-f]{64}, which is not trusted/],
    ['a signature over other bytes (the record changed after signing)', 'invalid', /dsseEnvelope\.payload\.predicate: differs from the record/],
  ] as const)('--trust: %s reads unqualified, saying why (exit 1)', async (_, status, says) => {
    const home =
      status === 'unsigned'
        ? await homeWith([{ from: ours.record.path, name: `${ours.record.id}.json` }])
        : status === 'untrusted'
          ? await homeWith([
              { from: theirs.record.path, name: `${theirs.record.id}.json` },
              { from: theirs.record.signature?.path ?? '', name: `${theirs.record.id}.sigstore.json` },
            ])
          : await homeWith([
              { from: ours.record.path, name: `${ours.record.id}.json`, edit: (text) => text.replace(/"driver": "[^"]*"/, '"driver": "forged"') },
              { from: ours.record.signature?.path ?? '', name: `${ours.record.id}.sigstore.json` },
            ]);
    const { exitCode, document } = await check(home, '--trust', ours.publicKeyFile);
    expect(exitCode).toBe(1);
    expect(document.verdict).toBe('unqualified');
    expect(document.signature?.status).toBe(status);
    expect(document.reason).toMatch(says);
    expect(document.reason).toContain('only a record signed by one of them qualifies');
    const text = await runStatecraft(['qualifications', 'check', fixture, '--trust', ours.publicKeyFile], { home });
    expect(text.exitCode).toBe(1);
    expect(rowsRejoined(text.stdout, 4)).toMatch(says);
  });

  it('--trust with a file that is no public key is refused naming it (exit 2)', async () => {
    const junk = join(await scratch.make('statecraft-junk-key'), 'junk.pub');
    writeFileSync(junk, 'not a key\n');
    const ran = await runStatecraft(['qualifications', 'check', fixture, '--trust', junk], { home: ours.home });
    expect(ran.exitCode).toBe(2);
    expect(ran.stderr).toContain(junk);
  });

  // A CI secret that is missing often arrives as an empty variable: read as "no trust configured",
  // a forged unsigned record would qualify the adapter on every verb that weighs trust.
  it.each([
    ['empty', ''],
    ['only separators', '::'],
  ])('STATECRAFT_TRUSTED_KEYS set but naming no key (%s) is refused (exit 2) on every verb that trusts, never read as no trust', async (_, value) => {
    const forged = await homeWith([{ from: ours.record.path, name: `${ours.record.id}.json` }]);
    const repository = await targets.fresh();
    for (const args of [
      ['qualifications', 'check', fixture],
      ['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete'],
      ['env', 'plan', repository.path, '--adapter', 'fixture'],
    ]) {
      const ran = await runStatecraft(args, { home: forged, env: { STATECRAFT_TRUSTED_KEYS: value } });
      expect(ran.exitCode, `${args.join(' ')}: ${ran.stdout}`).toBe(2);
      expect(ran.stderr).toContain('STATECRAFT_TRUSTED_KEYS');
      expect(ran.stderr).toContain('names no key file');
    }
    const bundle = join(await scratch.make('statecraft-no-bundle'), 'absent.tar');
    const verified = await runStatecraft(['verify', bundle], { home: forged, env: { STATECRAFT_TRUSTED_KEYS: value } });
    expect(verified.exitCode).toBe(2);
    expect(verified.stderr).toContain('names no key file');
  });

  it('run --trust: the qualification label believes only a record a trusted key signed; without trust its reason says who signed', async () => {
    const repository = await targets.fresh();
    const label = async (home: string, ...extra: string[]) => {
      const ran = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json', ...extra], { home });
      expect(ran.exitCode, ran.stderr).toBe(0);
      return parseJson<{ posture: { qualification: { verdict: string; reason: string } } }>(ran).posture.qualification;
    };
    expect(await label(ours.home, '--trust', ours.publicKeyFile)).toMatchObject({ verdict: 'qualified' });
    const forged = await homeWith([{ from: ours.record.path, name: `${ours.record.id}.json` }]);
    const refused = await label(forged, '--trust', ours.publicKeyFile);
    expect(refused.verdict).toBe('unqualified');
    expect(refused.reason).toContain('the record is unsigned');
    const untrusting = await label(forged);
    expect(untrusting.verdict).toBe('qualified');
    expect(untrusting.reason).toContain('the record is unsigned');
    expect(existsSync(join(forged, 'qualifications', `${ours.record.id}.sigstore.json`))).toBe(false);
  });

  it('env plan --trust: the plan counts a qualification record as run would, and so under STATECRAFT_TRUSTED_KEYS', async () => {
    const repository = await targets.fresh();
    const plan = async (home: string, extra: readonly string[], env: Record<string, string> = {}) => {
      const ran = await runStatecraft(['env', 'plan', repository.path, '--adapter', 'fixture', '--json', ...extra], { home, env });
      const adapter = parseJson<{ adapters: { qualification: { verdict: string; reason: string } }[] }>(ran).adapters[0];
      if (adapter === undefined) throw new Error(`env plan planned no adapter: ${ran.stdout}`);
      return adapter.qualification;
    };
    expect(await plan(ours.home, ['--trust', ours.publicKeyFile])).toMatchObject({ verdict: 'qualified' });
    const forged = await homeWith([{ from: ours.record.path, name: `${ours.record.id}.json` }]);
    expect(await plan(forged, [])).toMatchObject({ verdict: 'qualified' });
    for (const [extra, env] of [
      [['--trust', ours.publicKeyFile], {}],
      [[], { STATECRAFT_TRUSTED_KEYS: ours.publicKeyFile }],
    ] as const) {
      const refused = await plan(forged, extra, env);
      expect(refused.verdict).toBe('unqualified');
      expect(refused.reason).toContain('the record is unsigned');
    }
  });
});
