import { resolve } from 'node:path';
import type { z } from 'zod';
import { writeRunBundle, type BundleSource, type OpenedTargetRecords } from '@statecraft/records';
import type { Answer } from '../answer.js';
import { CliError, IoFailure } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { ExportAnswerSchema } from '../json-schemas/index.js';
import { STATECRAFT_VERSION } from '../statecraft-version.js';
import { renderExport } from './export-render.js';
import { signingKeyOrRefusal } from './signing-options.js';

type ExportAnswer = z.infer<typeof ExportAnswerSchema>;

/**
 * `statecraft export [target] <run> [-o <file>]`: one run's evidence in one bundle (decision 0281),
 * written by the records package; this only names where and renders what was written.
 */
export async function exportRun(options: { home: string; target: string; runId: string; output?: string }): Promise<Answer<ExportAnswer>> {
  const given = options.output ?? `statecraft-${options.runId}.tar`;
  const form = given.endsWith('/') ? 'directory' : 'tar';
  const output = resolve(given);
  // The manifest is signed with the home's key (or STATECRAFT_SIGNING_KEY) when there is one: collect believes only a signed bundle.
  const signer = await signingKeyOrRefusal(options.home, process.env);
  // Opened and verified once: the page and the bundle are made from the same reading of the chain.
  const { openRecordsOrRefuse } = await import('./run-show.js');
  const records = await openRecordsOrRefuse(options.home, options.target);
  const page = await reviewerPage({ ...options, records });
  const writing = await writeRunBundle({
    records,
    home: options.home,
    target: options.target,
    runId: options.runId,
    output,
    form,
    statecraftVersion: STATECRAFT_VERSION,
    environment: process.env,
    extra: page.sources,
    // The page read the attempt's kept files whole, the stream in the pass that classified it: the bundle takes their digests from that reading.
    digested: page.digested,
    ...(signer === undefined ? {} : { signer }),
  });
  if (writing.kind === 'refused') throw new CliError(`refused: ${writing.message}`, EXIT.refused, { hint: `statecraft run list ${options.target}` });
  if (writing.kind === 'failed') throw new IoFailure(writing.path, writing.message);
  const value: ExportAnswer = {
    path: writing.path,
    form: writing.form,
    runId: writing.manifest.runId,
    target: writing.manifest.target,
    files: writing.manifest.files.length + 1,
    bytes: writing.manifest.files.reduce((sum, file) => sum + file.bytes, 0),
    notExported: writing.notExported,
  };
  return { value, exitCode: EXIT.ok, human: renderExport };
}

/** The reviewer's page of the run's latest attempt, as `run show --html` writes it: read offline by whoever receives the bundle. */
async function reviewerPage(options: {
  home: string;
  target: string;
  runId: string;
  records: OpenedTargetRecords;
}): Promise<{ sources: BundleSource[]; digested: Map<string, { sha256: string; bytes: number }> }> {
  const { renderReviewerPage } = await import('../render/html/reviewer-page.js');
  // The stream is not classified again for the page: verify does it from the bundle, wherever it is read (decision 0351).
  const page = await renderReviewerPage({
    home: options.home,
    target: options.target,
    runId: options.runId,
    classifyStream: false,
    records: options.records,
  });
  const digested = new Map<string, { sha256: string; bytes: number }>();
  for (const file of page.evidence.files) if (file.reading.kind === 'read') digested.set(file.path, { sha256: file.reading.sha256, bytes: file.reading.size });
  return { sources: [{ path: 'page.html', role: 'reviewer-page', from: { kind: 'bytes', bytes: page.html } }], digested };
}
