import { resolve } from 'node:path';
import type { z } from 'zod';
import { readBundle, readTrustedKeys, SigningKeyProblem, verifyBundleContents, verifyBundleSignatures } from '@statecraft/records';
import type { Answer } from '../answer.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { VerifyAnswerSchema } from '../json-schemas/index.js';
import { renderVerification } from './verify-render.js';

type VerifyAnswer = z.infer<typeof VerifyAnswerSchema>;

/**
 * `statecraft verify <bundle>`: reads the bundle once and checks it with its own bytes
 * (decision 0282); the records package decides, this maps the answer to an exit code and renders it.
 * A bundle that cannot be read as one is refused (exit 2), naming the file.
 */
export async function verifyBundle(options: { bundle: string; trust: readonly string[] }): Promise<Answer<VerifyAnswer>> {
  const path = resolve(options.bundle);
  const trusted = await readTrustedKeys(options.trust, process.env).catch((error: unknown) => {
    if (error instanceof SigningKeyProblem)
      throw new CliError(`refused: ${error.message}`, EXIT.refused, { hint: 'give --trust a PEM public key file, as `statecraft keys show` prints it' });
    throw error;
  });
  const reading = await readBundle(path);
  if (reading.kind === 'unreadable')
    throw new CliError(`refused: ${reading.path}: ${reading.message}`, EXIT.refused, { hint: 'give the tar or directory `statecraft export` wrote' });
  const verification = verifyBundleContents(reading);
  const signatures = await verifyBundleSignatures(reading, trusted);
  const value: VerifyAnswer = {
    bundle: path,
    ...verification,
    trustedKeys: trusted.map((key) => key.keyId),
    holds: [...verification.holds, ...signatures.holds],
    findings: [...verification.findings, ...signatures.findings],
  };
  return { value, exitCode: value.findings.length === 0 ? EXIT.ok : EXIT.finding, human: renderVerification };
}
