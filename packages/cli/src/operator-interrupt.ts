/**
 * The operator's request to stop, as one AbortSignal (R8.1): Ctrl-C (SIGINT), a service manager's
 * or `kill`'s SIGTERM, and SIGHUP from a terminal that closed. Each cancels the attempt or the
 * suite the same way — the tree killed, survivors probed, `cancelled` recorded, the answer printed —
 * where node's default for SIGTERM and SIGHUP would end the supervisor at once and leave a
 * dangling intent and a stale lock behind it.
 */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface OperatorInterrupt {
  signal: AbortSignal;
  /** Stops listening: node's defaults apply again once the verb's work is recorded. */
  stop(): void;
}

export function listenForOperatorInterrupt(): OperatorInterrupt {
  const interrupt = new AbortController();
  const onSignal = (): void => interrupt.abort();
  // `on`, not `once`: execa's exit hook re-raises a signal when it finds itself the only listener left.
  for (const name of STOP_SIGNALS) process.on(name, onSignal);
  return {
    signal: interrupt.signal,
    stop: () => {
      for (const name of STOP_SIGNALS) process.removeListener(name, onSignal);
    },
  };
}
