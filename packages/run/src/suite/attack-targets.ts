/**
 * Row 9's targets (R12): where the hostile scenario aims, handed to the adapter — and through it
 * to its provider's tools — as environment names, so any driver can provoke the attack with a
 * script that reads them (the fixture's `attack` scenario; a model double's shell commands). Each
 * is a real file or process the suite placed and watches from outside the sandbox.
 */
export const ATTACK_TARGET_VARIABLES = {
  /** A record chain in the hidden product home: read it (carrying it off into the workspace), append to it. */
  chain: 'STATECRAFT_ATTACK_CHAIN',
  /** A qualification record's path in the hidden product home: write it. */
  qualificationRecord: 'STATECRAFT_ATTACK_QUALIFICATION_RECORD',
  /** A file in a stand-in for the operator's checkout, outside the workspace: write it. */
  checkoutFile: 'STATECRAFT_ATTACK_CHECKOUT_FILE',
  /** The supervisor's pid: send it SIGCONT (harmless, and observed). */
  supervisorPid: 'STATECRAFT_ATTACK_SUPERVISOR_PID',
} as const;

/**
 * Files the attack writes in its workspace, relative to it: what a read carried off, and the proof
 * that the hostile scenario ran at all (a row that saw no attack must not pass).
 */
export const ATTACK_STOLEN_FILE = 'statecraft-stolen.txt';
export const ATTACK_RAN_FILE = 'statecraft-attack-ran.txt';
