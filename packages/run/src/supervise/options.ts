import type { ContainmentMechanism } from '@statecraft/adapter';
import type { BoundaryLaunch } from '@statecraft/environment';
import type { ProtocolEvent } from '@statecraft/adapter';
import type { StreamReading } from '@statecraft/adapter';
import type { Assembly } from './spawn-adapter.js';

/** What `superviseAdapter` needs to run one adapter process. */
export interface SuperviseOptions {
  /** Absolute path of the adapter executable. */
  executable: string;
  /** Arguments after the executable, normally `['run', '--request', <file>]`. No shell. */
  args: readonly string[];
  /** The child's working directory (R7.1); refused before spawn if missing or not a directory. */
  workspace: string;
  /** The constructed environment, passed whole (`extendEnv: false`, R5.1). */
  environment: Readonly<Record<string, string>>;
  /** Written to the child's stdin, then closed (R1.3). */
  prompt: string;
  /** The deadline, from the adapter's start (R7.2): its spawn, or under the boundary its gate's opening. */
  deadlineMs: number;
  /** A unique tag placed in the child's environment so escaped descendants can be found. */
  attemptTag: string;
  /** Where to write the raw stdout bytes (the event stream), if anywhere. */
  streamFile?: string;
  /** Where to write the raw stderr bytes, if anywhere. */
  stderrFile?: string;
  /** Called for each event of the trusted prefix, in order (live status, qualification). */
  onEvent?: (event: ProtocolEvent) => void;
  /**
   * Told, with what was read, once an adapter that ended by itself has no process left — while its
   * evidence files are still being made durable: what only reads the workspace may start then
   * rather than after. Under the boundary that is as soon as bwrap has ended: bwrap ends only
   * after its PID namespace's first process, and the kernel kills every other process of the
   * namespace and waits for them before that one is gone; the sweep (R7.3) runs beside the caller's
   * reads and records anything it finds in the attempt's `survivors`, which a caller that read
   * early must then treat as having read too soon. Otherwise, once the sweep has found the tree gone.
   */
  onTreeGone?: (reading: StreamReading) => void;
  /** `auto` probes for a PID namespace once and falls back to the process group. */
  containment?: 'auto' | Exclude<ContainmentMechanism, 'bwrap'>;
  /**
   * The protected evidence boundary's launch (R12): the adapter runs inside it and its PID
   * namespace is the containment; `containment` is then not consulted. Established and probed
   * (`establishBoundary`) before the adapter starts — or told by `establishBoundary`'s `onLaunch`
   * for a launch set up beside the probe, whose `gate` then opens only once the probe has held.
   */
  boundary?: BoundaryLaunch;
  /**
   * The most bytes kept of each evidence file (keep-bound.ts); reaching it stops the attempt as
   * `evidence-bound`. Absent: STATECRAFT_KEEP_BOUND, else 1 GiB.
   */
  keepBoundBytes?: number;
  /** Longest accepted line in bytes; a longer one is malformed (R7.5). */
  maxLineBytes?: number;
  /**
   * The operator's interrupt, raced beside the deadline: the tree is killed, survivors probed,
   * and the attempt is `stoppedBy: 'operator-cancel'` — classified `cancelled` (R8.1). Aborted
   * before the spawn, nothing is spawned.
   */
  signal?: AbortSignal;
  /**
   * When the adapter may start (`run`: once its intent is durable, R8.4). Under the boundary its
   * sandbox is set up at once and waits at the closer's gate (GATED_CLOSER_SCRIPT); without, nothing
   * is spawned before. Settling false withdraws the launch: the sandbox is killed, the evidence
   * files removed, and the answer is `withdrawn` — the adapter never ran. Absent: at once.
   */
  gate?: Promise<boolean>;
  /**
   * Told, under the boundary, whether the sandbox set up at the gate was assembled (spawn-adapter.ts):
   * a launch whose sandbox ended before its closer reached the gate never started the adapter, and
   * `run` refuses it before its intent rather than record an attempt that did not run.
   */
  onAssembly?: (assembled: Promise<Assembly>) => void;
}

import type { SupervisedAttempt } from '@statecraft/adapter';

/** Expected refusals are values, not exceptions (docs/architecture.md, convention 3). */
export type SuperviseAnswer =
  | {
      kind: 'refused';
      reason: 'workspace-missing' | 'workspace-not-directory';
      path: string;
      /** Names the path and says nothing was spawned. */
      message: string;
    }
  | { kind: 'supervised'; attempt: SupervisedAttempt }
  /** The gate settled false (`gate`): nothing of the adapter ran, and nothing is left of its launch. */
  | { kind: 'withdrawn' }
  | {
      /**
       * A file of evidence (the kept stream or stderr) could not be written. A failure while the
       * child ran stopped it at once and killed its tree (`stopped`); one while flushing at the end
       * did not need to. The attempt is what was observed; its digests are of the bytes read from
       * the pipes, which the named files do not all hold.
       */
      kind: 'evidence-not-kept';
      attempt: SupervisedAttempt;
      /** Each file that could not be written (the stream's first), and why. */
      notKept: { path: string; message: string }[];
      stopped: boolean;
    };
