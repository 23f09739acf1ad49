import { readBoundaryChoice } from '@statecraft/environment';
import { resolveProductHome } from '@statecraft/records';
import { emit } from '../answer.js';
import { UsageError } from '../errors.js';
import { listenForOperatorInterrupt } from '../operator-interrupt.js';
import { writeHumanLines } from '../render/human-lines.js';
import { liveLineFor } from '../render/live-line.js';
import { qualify } from './qualify.js';
import { renderCaseEnded, renderCaseStarted } from './qualify-render.js';
import { checkSupervisionOverrides } from './run-options.js';
import { refuseSigningKeyInReach } from './signing-options.js';

/** `qualify`'s flags, as commander parses them. */
export interface QualifyFlags {
  fixture: boolean;
  manifest?: string;
  provider?: string;
  boundary?: string;
  json: boolean;
}

/** What an interrupted `qualify` says on stderr, whatever else it prints. */
const QUALIFY_CANCELLED =
  "qualify cancelled by the operator: the attempt running was killed, the rows not run to their end are not-run, nothing was recorded, and the suite's scratch directory was removed";

/** `qualify`'s action: the flags checked, the suite run with its cases shown live on a terminal, the answer printed. */
export async function qualifyFromFlags(binary: string | undefined, flags: QualifyFlags): Promise<void> {
  const boundary = readBoundaryChoice(flags.boundary, process.env);
  if (boundary.kind === 'invalid') throw new UsageError(boundary.message);
  refuseSigningKeyInReach(process.env, boundary, resolveProductHome().path);
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
}
