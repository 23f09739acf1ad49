import { closeSync, existsSync, readdirSync } from 'node:fs';
import { describeUnopenable, openRegularFileSync } from '@statecraft/adapter';
import { open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { attemptArtifactNames, attemptDirectoryName } from '../attempt-files.js';
import { acceptanceKeptFiles } from '../read/own-evidence-paths.js';
import { readChainLines } from '../chain/read-chain-lines.js';
import type { ChainEntry } from '../chain/open-chain.js';
import type { ChainRecord } from '../chain/record-schemas.js';
import { listQualificationRecords, qualificationsDir } from '../qualification/qualification-store.js';
import type { BundleRole } from './bundle-manifest.js';

/** One file to put in a bundle: read from where it is kept, or made by the export (the chain's lines, the page). */
export interface BundleSource {
  path: string;
  role: BundleRole;
  from: { kind: 'file'; path: string } | { kind: 'bytes'; bytes: Buffer };
}

/** A file the records name that could not be read: exported without it, and the verifier names it missing. */
export interface NotExported {
  path: string;
  why: string;
}

export const RECORDS_PATH = 'chain/records.jsonl';
export const ANCHORS_PATH = 'chain/anchors.jsonl';

/**
 * Everything one run's bundle holds, gathered from a verified chain: the run's lines byte for byte,
 * the line before each of them that is not itself one (its `prev` is that line's digest), each
 * attempt's kept files, each judgement's check outputs and receipt with its signature, and the
 * qualification records of the adapter its intents name, with theirs.
 */
export async function collectRunFiles(input: {
  home: string;
  chain: string;
  targetDirectory: string;
  entries: readonly ChainEntry[];
  runId: string;
}): Promise<{ sources: BundleSource[]; notExported: NotExported[] }> {
  const ofRun = input.entries.filter((entry) => 'runId' in entry.record && entry.record.runId === input.runId);
  const wanted = new Set(ofRun.map((entry) => entry.lineNumber));
  const anchors = new Set([...wanted].map((line) => line - 1).filter((line) => line >= 1 && !wanted.has(line)));
  const { runLines, anchorLines } = await readLines(input.chain, wanted, anchors);
  const sources: BundleSource[] = [
    { path: RECORDS_PATH, role: 'chain-records', from: { kind: 'bytes', bytes: Buffer.concat(runLines) } },
    { path: ANCHORS_PATH, role: 'chain-anchors', from: { kind: 'bytes', bytes: Buffer.concat(anchorLines) } },
  ];
  const notExported: NotExported[] = [];
  const kept = (path: string, role: BundleRole): void => {
    const source = join(input.targetDirectory, path);
    // Opened, not read: the bundle's writer reads each file once, digesting it (write-bundle.ts).
    const why = unopenable(source);
    if (why !== undefined) notExported.push({ path, why });
    else sources.push({ path, role, from: { kind: 'file', path: source } });
  };
  const adapters = new Set<string>();
  for (const { record } of ofRun) collectOfRecord(input.targetDirectory, record, kept, adapters);
  for (const source of await qualificationSources(input.home, adapters)) sources.push(source);
  return { sources, notExported };
}

function collectOfRecord(targetDirectory: string, record: ChainRecord, kept: (path: string, role: BundleRole) => void, adapters: Set<string>): void {
  if (record.kind === 'intent') {
    const names = attemptArtifactNames(record.runId, record.attempt);
    kept(names.request, 'request');
    kept(names.prompt, 'prompt');
    adapters.add(record.posture.adapter.digest);
  } else if (record.kind === 'outcome') {
    const names = attemptArtifactNames(record.runId, record.attempt);
    if (record.artifacts.stream !== 'not-recorded') kept(names.stream, 'stream');
    if (record.artifacts.stderr !== 'not-recorded') kept(names.stderr, 'stderr');
    kept(names.result, 'result');
  } else if (record.kind === 'acceptance') {
    // Only files inside the judged attempt's own directory: a record naming another's is the verifier's finding, not a path to follow.
    const own = `${attemptDirectoryName(record.runId, record.attempt)}/acceptance-`;
    for (const [file, output] of acceptanceKeptFiles(record)) {
      if (!output.path.startsWith(own) || output.path.includes('..')) continue;
      if (file === 'receipt.sigstore.json') continue;
      if (file !== 'receipt.json') kept(output.path, 'check-output');
      else {
        kept(output.path, 'receipt');
        // Bound by the record where accept signed it (its digest checked with the others), or only beside the receipt.
        const signature = join(dirname(output.path), 'receipt.sigstore.json');
        if (existsSync(join(targetDirectory, signature))) kept(signature, 'receipt-signature');
      }
    }
  }
}

/** The qualification records of the adapters the run's intents name (by digest), with each one's signature when it has one. */
async function qualificationSources(home: string, adapters: ReadonlySet<string>): Promise<BundleSource[]> {
  const directory = qualificationsDir(home);
  if (adapters.size === 0 || !existsSync(directory)) return [];
  const { records } = await listQualificationRecords(home);
  const present = new Set(readdirSync(directory));
  return records
    .filter((entry) => adapters.has(entry.record.adapter.digest))
    .flatMap((entry): BundleSource[] => {
      const name = basename(entry.path);
      const signature = name.replace(/\.json$/, '.sigstore.json');
      return [
        { path: `qualifications/${name}`, role: 'qualification', from: { kind: 'file', path: entry.path } },
        ...(present.has(signature)
          ? [
              {
                path: `qualifications/${signature}`,
                role: 'qualification-signature' as const,
                from: { kind: 'file' as const, path: join(directory, signature) },
              },
            ]
          : []),
      ];
    });
}

/** The chain's lines at the given 1-based numbers, each with its newline, read in bounded chunks. */
async function readLines(chain: string, run: ReadonlySet<number>, anchors: ReadonlySet<number>): Promise<{ runLines: Buffer[]; anchorLines: Buffer[] }> {
  const runLines: Buffer[] = [];
  const anchorLines: Buffer[] = [];
  const last = Math.max(0, ...run);
  const handle = await open(chain, 'r');
  try {
    let number = 0;
    await readChainLines(handle, 0, (line) => {
      number += 1;
      const whole = Buffer.concat([line, Buffer.from('\n')]);
      if (run.has(number)) runLines.push(whole);
      else if (anchors.has(number)) anchorLines.push(whole);
      return number < last;
    });
  } finally {
    await handle.close();
  }
  return { runLines, anchorLines };
}

/** Why a kept file cannot be opened as a regular file, in readKeptFile's words; undefined when it can. */
function unopenable(path: string): string | undefined {
  try {
    closeSync(openRegularFileSync(path));
    return undefined;
  } catch (error) {
    return describeUnopenable(error);
  }
}

/** The sha256 and size of bytes held in memory, as a kept file's are read. */
export function digestOfBytes(bytes: Buffer): { sha256: string; bytes: number } {
  return { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
}
