import { sha256Hex, type CoverageReadFrom } from '@statecraft/adapter';
import { PROJECT_DECLARATION_PATH } from '@statecraft/environment';
import { readInputFile, resolveCommit, type CoverageSource, type InputFileReading } from './read-input-file.js';
import { isSpecId, specCandidatePaths } from './spec-lookup.js';

/** One input file as read: its text and `sha256:` of its bytes. */
interface ReadInput {
  path: string;
  text: string;
  digest: string;
}

export interface CoverageInputs {
  kind: 'read';
  /** A commit is recorded by its full object name, whatever the caller gave. */
  readFrom: CoverageReadFrom;
  spec: (ReadInput & { id: string }) | 'none';
  declaration: (ReadInput & { kind: 'present' }) | { kind: 'absent'; path: string };
}

export type CoverageInputsRefusalReason =
  | 'unknown-commit'
  | 'invalid-spec-id'
  | 'spec-missing'
  | 'spec-not-a-file'
  | 'spec-not-utf8'
  | 'declaration-not-a-file'
  | 'declaration-not-utf8'
  | 'unreadable';

export interface CoverageInputsRefusal {
  kind: 'refused';
  /** Which input could not be read; `repository`: neither could (a bad commit, git failing). */
  input: 'suite plan' | 'allowance' | 'repository';
  reason: CoverageInputsRefusalReason;
  message: string;
}

/**
 * Reads the two coverage inputs (R9.4): the spec (`--spec`, looked up by `specCandidatePaths`)
 * and the target's `.statecraft/environment.json`, from the working tree or from a commit.
 */
export async function readCoverageInputs(input: {
  repository: string;
  spec?: string | undefined;
  source: CoverageSource;
}): Promise<CoverageInputs | CoverageInputsRefusal> {
  const { repository } = input;
  let source = input.source;
  let readFrom: CoverageReadFrom = { kind: 'working-tree' };
  if (source.kind === 'commit' && source.resolved === true) {
    readFrom = { kind: 'commit', commit: source.commit };
  } else if (source.kind === 'commit') {
    const resolved = await resolveCommit(repository, source.commit);
    if (!resolved.ok) return { kind: 'refused', input: 'repository', reason: 'unknown-commit', message: resolved.message };
    source = { kind: 'commit', commit: resolved.commit };
    readFrom = { kind: 'commit', commit: resolved.commit };
  }
  const where = source.kind === 'commit' ? `at commit ${source.commit}` : 'in the working tree';

  let spec: CoverageInputs['spec'] = 'none';
  if (input.spec !== undefined) {
    const found = await readSpec(repository, source, input.spec, where);
    if (found.kind === 'refused') return found;
    spec = found.spec;
  }

  const path = PROJECT_DECLARATION_PATH;
  const reading = await readInputFile(repository, source, path);
  if (reading.kind === 'absent') return { kind: 'read', readFrom, spec, declaration: { kind: 'absent', path } };
  const declaration = asText(reading, path, where);
  if (declaration.kind === 'refused') {
    const reason = declaration.reason === 'not-a-file' ? 'declaration-not-a-file' : declaration.reason === 'not-utf8' ? 'declaration-not-utf8' : 'unreadable';
    return { kind: 'refused', input: 'allowance', reason, message: declaration.message };
  }
  return { kind: 'read', readFrom, spec, declaration: { kind: 'present', ...declaration.input } };
}

async function readSpec(
  repository: string,
  source: CoverageSource,
  id: string,
  where: string,
): Promise<{ kind: 'found'; spec: ReadInput & { id: string } } | CoverageInputsRefusal> {
  if (!isSpecId(id)) {
    return {
      kind: 'refused',
      input: 'suite plan',
      reason: 'invalid-spec-id',
      message: `--spec "${id}": a spec id is letters, digits and _ . - in "/"-separated segments, none starting with "."`,
    };
  }
  const candidates = specCandidatePaths(id);
  for (const path of candidates) {
    const reading = await readInputFile(repository, source, path);
    if (reading.kind === 'absent') continue;
    const text = asText(reading, path, where);
    if (text.kind === 'found') return { kind: 'found', spec: { id, ...text.input } };
    const reason = text.reason === 'not-a-file' ? 'spec-not-a-file' : text.reason === 'not-utf8' ? 'spec-not-utf8' : 'unreadable';
    return { kind: 'refused', input: 'suite plan', reason, message: `spec ${id}: ${text.message}` };
  }
  return {
    kind: 'refused',
    input: 'suite plan',
    reason: 'spec-missing',
    message: `spec ${id}: neither ${candidates.join(' nor ')} exists ${where} of ${repository}`,
  };
}

function asText(
  reading: Exclude<InputFileReading, { kind: 'absent' }>,
  path: string,
  where: string,
): { kind: 'found'; input: ReadInput } | { kind: 'refused'; reason: 'not-a-file' | 'not-utf8' | 'failed'; message: string } {
  if (reading.kind === 'failed') return { kind: 'refused', reason: 'failed', message: reading.message };
  if (reading.kind === 'not-a-file')
    return { kind: 'refused', reason: 'not-a-file', message: `${path} ${where} is ${reading.what}, not a file; it is not read` };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(reading.bytes);
  } catch {
    return { kind: 'refused', reason: 'not-utf8', message: `${path} ${where} is not UTF-8 text` };
  }
  return { kind: 'found', input: { path, text, digest: `sha256:${sha256Hex(reading.bytes)}` } };
}
