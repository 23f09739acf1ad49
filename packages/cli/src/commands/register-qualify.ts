import type { Command } from 'commander';
import { readBoundaryChoice } from '@statecraft/environment';
import { resolveProductHome } from '@statecraft/records';
import { emit } from '../answer.js';
import { writeHumanLines } from '../render/human-lines.js';
import { listenForOperatorInterrupt } from '../operator-interrupt.js';
import { UsageError } from '../errors.js';
import { liveLineFor } from '../render/live-line.js';
import { checkSupervisionOverrides } from './run-options.js';
import { collectTrust } from './signing-options.js';

/** What an interrupted `qualify` says on stderr, whatever else it prints. */
const QUALIFY_CANCELLED =
  "qualify cancelled by the operator: the attempt running was killed, the rows not run to their end are not-run, nothing was recorded, and the suite's scratch directory was removed";

/** Registers `qualify` and `qualifications` (R3, R4, R11). Computing is in qualify.ts / qualifications.ts. */
export function registerQualify(program: Command): void {
  registerQualifyVerb(program);
  const qualifications = registerQualifications(program);
  registerQualificationsList(qualifications);
  registerQualificationsShow(qualifications);
  registerQualificationsCheck(qualifications);
}

/** `qualify`: the negative suite against one binary, its cases shown live on a terminal. */
function registerQualifyVerb(program: Command): void {
  program
    .command('qualify')
    .summary('run the negative suite against an adapter binary; record a full pass')
    .description(
      'Run the negative suite (nine cases, R4) against an adapter executable through the real supervisor. ' +
        'On a full pass, write a qualification record to $STATECRAFT_HOME/qualifications/ bound to the ' +
        "binary's name, version and content digest and its manifest's (and the provider's identity, with --provider).",
    )
    .argument('[binary]', 'the adapter executable (its manifest is <binary>.manifest.json unless --manifest)')
    .option('--fixture', 'qualify the fixture adapter shipped with the suite', false)
    .option('--manifest <file>', "the adapter's manifest, when it is not beside the executable")
    .option('--provider <path>', 'the provider binary the adapter fronts: the pair is qualified')
    .option('--boundary <mode>', 'run each attempt inside the evidence boundary: bwrap (default) or none; the record says which (also STATECRAFT_BOUNDARY)')
    .option('--json', 'print one JSON document instead of text', false)
    .addHelpText(
      'after',
      `
Examples:
  statecraft qualify --fixture           qualify the bundled fixture adapter
  statecraft qualify ./my-adapter --json
                                         CI: exit 0 only on a full pass
  statecraft qualify ./my-adapter --manifest m.json
                                         a manifest kept elsewhere

An arbitrary binary is provoked with prompts of the form "scenario: <name>"
(see qualification/README.md).
JSON: { passed, suiteVersion, adapter, provider, driver, cases, record }: each
case a { row, title, status, evidence, detail }; record the { id, path }
written, or null.
Exit: 0 every case passed and a record was written; 1 a case failed or did
not run (no record); 2 refused before anything ran (no manifest, no
executable, no provider executable, a provider whose identity files are
missing).`,
    )
    .action(async (binary: string | undefined, flags: { fixture: boolean; manifest?: string; provider?: string; boundary?: string; json: boolean }) => {
      const [{ qualify }, { renderCaseEnded, renderCaseStarted }] = await Promise.all([import('./qualify.js'), import('./qualify-render.js')]);
      const boundary = readBoundaryChoice(flags.boundary, process.env);
      if (boundary.kind === 'invalid') throw new UsageError(boundary.message);
      checkSupervisionOverrides();
      const live = flags.json ? undefined : liveLineFor(process.stdout);
      // Ctrl-C or SIGTERM stops the suite (its attempt killed, its scratch directory removed), records nothing, and says so.
      const interrupt = listenForOperatorInterrupt();
      let answer: Awaited<ReturnType<typeof qualify>>;
      try {
        answer = await qualify({
          ...(binary === undefined ? {} : { binary }),
          fixture: flags.fixture,
          ...(flags.manifest === undefined ? {} : { manifest: flags.manifest }),
          ...(flags.provider === undefined ? {} : { provider: flags.provider }),
          home: resolveProductHome().path,
          boundary: boundary.kind,
          ...(live === undefined
            ? {}
            : {
                onCaseStart: (entry) => live.show(renderCaseStarted(entry.row, entry.title)),
                onCaseEnd: (entry, report) => live.commit(renderCaseEnded(entry.row, entry.title, report.status, report.evidence)),
              }),
          signal: interrupt.signal,
        });
      } finally {
        interrupt.stop();
      }
      if (interrupt.signal.aborted && answer.value.record === null) writeHumanLines(process.stderr, [QUALIFY_CANCELLED], 'statecraft: ');
      emit(answer, flags.json);
    });
}

/** `qualifications`: the parent of list, show and check. */
function registerQualifications(program: Command): Command {
  const qualifications = program
    .command('qualifications')
    .summary('list, show and check qualification records')
    .description('Read the qualification records in $STATECRAFT_HOME/qualifications/.')
    .addHelpText(
      'after',
      `
Examples:
  statecraft qualifications              list every record
  statecraft qualifications show <id>    one record, each case and its evidence
  statecraft qualifications check ./my-adapter
                                         qualified or unqualified, and why
  statecraft qualifications --json       the list as one JSON document
                                         (each subcommand takes --json)`,
    );
  return qualifications;
}

/** `qualifications list` (the default). */
function registerQualificationsList(qualifications: Command): void {
  qualifications
    .command('list', { isDefault: true })
    .description('list every qualification record')
    .option('--json', 'print one JSON document instead of text', false)
    .addHelpText(
      'after',
      `
Examples:
  statecraft qualifications list         every record: id, adapter, provider,
                                         suite, cases passed, date, platform
  statecraft qualifications list --json

JSON: { home, records, unreadable }: each record an { id, path, adapter,
provider, suiteVersion, protocol, platform, date, cases: { passed, total } };
unreadable names each file that is not a valid record.
Exit: 0 listed; 1 a file is not a valid record.`,
    )
    .action(async (flags: { json: boolean }) => {
      const { listQualifications } = await import('./qualifications.js');
      emit(await listQualifications({ home: resolveProductHome().path }), flags.json);
    });
}

/** `qualifications show <id>`. */
function registerQualificationsShow(qualifications: Command): void {
  qualifications
    .command('show')
    .description('show one qualification record')
    .argument('<id>', 'the record id, as `qualifications list` prints it')
    .option('--json', 'print one JSON document instead of text', false)
    .addHelpText(
      'after',
      `
Examples:
  statecraft qualifications list         find the id
  statecraft qualifications show <id>    the record, each case and its evidence
  statecraft qualifications show <id> --json

JSON: { path, record }: the record whole (adapter, provider, suiteVersion,
protocol, driver, platform, date, cases).
Exit: 0 shown; 2 refused: no record has that id ({ refused } with --json);
3 not an id; 4 the record cannot be read.`,
    )
    .action(async (id: string, flags: { json: boolean }) => {
      const { showQualification } = await import('./qualifications.js');
      emit(await showQualification({ home: resolveProductHome().path, id }), flags.json);
    });
}

/** `qualifications check <binary>`: qualified or not, and why; runs nothing. */
function registerQualificationsCheck(qualifications: Command): void {
  qualifications
    .command('check')
    .description('say whether this exact binary is qualified, and why (runs nothing)')
    .argument('<binary>', 'the adapter executable')
    .option('--manifest <file>', "the adapter's manifest, when it is not beside the executable")
    .option('--provider <path>', 'the provider binary the adapter fronts (the pair is what is qualified)')
    .option('--trust <public-key>', 'believe only records signed by this key (repeatable; also STATECRAFT_TRUSTED_KEYS)', collectTrust, [])
    .option('--json', 'print one JSON document instead of text', false)
    .addHelpText(
      'after',
      `
Examples:
  statecraft qualifications check ./my-adapter
                                         is this exact binary qualified?
  statecraft qualifications check ./my-adapter --provider $(which claude) --json
  statecraft qualifications check ./my-adapter --trust ci.pub
                                         only a record signed by that key counts

JSON: { verdict, reason, adapter: { name, version, digest }, provider, record,
signature, trustedKeys }: verdict qualified or unqualified; record the
{ id, path } that qualifies it, or null; signature the matching record's:
verified, unsigned, untrusted or invalid.
Exit: 0 qualified; 1 unqualified (the reason says what differs: version,
digest, provider, suite). A binary with the qualified version string but
different bytes is unqualified.`,
    )
    .action(async (binary: string, flags: { manifest?: string; provider?: string; trust: string[]; json: boolean }) => {
      const { checkQualifications } = await import('./qualifications.js');
      emit(
        await checkQualifications({
          home: resolveProductHome().path,
          binary,
          ...(flags.manifest === undefined ? {} : { manifest: flags.manifest }),
          ...(flags.provider === undefined ? {} : { provider: flags.provider }),
          trust: flags.trust,
        }),
        flags.json,
      );
    });
}
