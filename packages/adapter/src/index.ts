/**
 * @statecraft/adapter — the seam. Every agent runs through this package, and it names no
 * provider (R1.1).
 *
 * Modules:
 * - capabilities.ts        the closed six-token vocabulary (R2.1)
 * - schema-pieces.ts       the shapes every record shares, defined once: digests, commit ids, counts, times, cost, verdict, an adapter's object kept verbatim
 * - candidate-origin.ts    an attempt's start and who made its candidate (R13.2): the run's records and the receipt share them
 * - protocol/version.ts    the protocol version every request and event carries (R1.5)
 * - protocol/manifest.ts   the adapter manifest schema (R2.2)
 * - protocol/request.ts    the request the supervisor writes (R1.2)
 * - protocol/events.ts     the NDJSON events the adapter emits: init, progress, refusal, result, error
 * - read-manifest.ts       reads a manifest without executing anything, and its digest for qualification (canonical JSON)
 * - canonical-json.ts      one spelling of a JSON value (sorted keys, no whitespace): a digest of what a reader acts on
 * - negotiate.ts           required / preferred tokens against the manifest; init discrepancies (R2.3, R2.4)
 * - supervise/attempt.ts   what the supervisor observed of one process (shapes)
 * - supervise/options.ts   what the supervisor needs, and its answer
 * - outcome.ts             the five outcomes (R8.1) and interruption causes
 * - classify.ts            the supervisor's reading of an attempt into an outcome (R8.2, R10.4); what a result reads from the stream alone
 * - result.ts              the recorded attempt result (R1.2)
 * - schema-errors.ts       zod errors as sentences naming file and field
 * - content-digest.ts      sha256 digests of files and bytes
 * - make-directories.ts    a directory and its missing parents, made one at a time so a refusing file system (/proc) fails at once
 * - durable-write.ts       whole files written atomically and fsync'd (once, with `exclusive`); directory fsync; every byte of a write
 * - regular-file.ts        files statecraft keeps opened only if regular, never waiting: a FIFO in their place is named, not waited on, and what stands there said in one wording (describeUnopenable); small files read within a bound, a tail read as a tail
 * - failure-words.ts       what a failure says after the path it names, so a caller naming the file does not name it twice
 * - executable-file.ts     whether a path can be executed, and the one PATH search every package uses
 * - path-entries.ts        keeps PATH's absolute entries only: an empty or relative one resolves in the agent's workspace (R5.1)
 * - file-identity.ts       what identifies a file's bytes without reading them (device, inode, size, times)
 * - digest-cache.ts        file digests remembered by identity, and handed to the adapter in the request
 * - remembered-entry-file.ts   one cache entry in the product home, read against its schema and written whole
 * - attempt/*              the attempt core `run` and `qualify` share: file names, the process tag, the request, supervise + classify
 * - suite/driver.ts        how the negative suite provokes behaviour from one adapter
 * - suite/index.ts         the negative suite: case table, runner, runAdapterOnce, the fixture driver (R4)
 * - qualification/         qualification records: write once, list, show, check a binary (R3)
 * - fixture-adapter-path.ts where the shipped fixture adapter and replay child live
 * - package-root.ts        an installed package's root by its name: node_modules looked up directly, Node's resolver behind
 * - stream/*               the bounded NDJSON event-stream reader: trusted prefix, diagnostics (R7.4, R7.5)
 * - stream/refusal-tally.ts refusals kept bounded: a count, a running digest, the first few (issue 9)
 * - supervise/*            the process supervisor: workspace check, spawn, deadline, tree kill, survivor probe (R7);
 *                          the stream tee, which stops an attempt whose evidence cannot be written
 * - supervise/boundary-record.ts  the protected evidence boundary's shapes: profile, probe findings, record, residuals (R12)
 * - supervise/boundary-probe.ts   the self-test run inside the sandbox before each launch, and the descriptor closer (R12)
 * - supervise/bwrap-boundary.ts   the boundary's mechanism on Linux (bubblewrap): establish, wrap the child (R12)
 * - supervise/run-quietly.ts      bwrap and the probe run with a fixed PATH, their output whole, a time limit counted once their input is given
 * - supervise/boundary-after-probe.ts  an established boundary widened after its probe: paths made read-only or hidden, recorded in its profile (R12, R13.3, R13.5)
 * - supervise/product-home-views.ts  every other mount reaching the product home, from the mount table, hidden and probed too (R12)
 * - supervise/adapter-reachable.ts  what the agent's processes can still do to the adapter (attach unless Yama, reopen its descriptors): residuals (R12)
 * - supervise/bwrap-version.ts    bwrap's version for the boundary record, remembered by the binary's identity
 * - supervise/keep-bound.ts       how many bytes of each evidence file are kept (STATECRAFT_KEEP_BOUND, 1 GiB): past it the attempt or check is stopped (R8.4)
 * - supervise/supervisor-death-warden.ts  the tree ended should the supervisor die outright, where the kernel alone does not (PID namespace, process group): a shell that kills the group and the tagged processes (R7.2, R7.3)
 * - supervise/managed-paths.ts    an adapter's managed paths checked against what they must not reach (alone, for `env plan`), then made when absent, so the boundary can bind them writable (R10.6, R12)
 * - supervise/writable-paths-remembered.ts every managed path a boundary bound writable, remembered in the product home: no later run of any adapter takes a target inside one (R12)
 * - supervise/supervisor-protected-locations.ts what statecraft runs or reads outside the sandbox, whichever target: no managed path may reach it (R12)
 * - supervise/enclosing-git-directory.ts whether a managed path is or lies inside a git directory, up to the HOME or /tmp it lies in; what it holds is not walked (R12)
 * - supervise/supervisor-programs.ts   where each program statecraft runs outside the sandbox really lives, link by link, with its installation (R12)
 * - supervise/resolved-through-links.ts a path with its links resolved as far as it exists
 * - adapter-kit/*          what every adapter executable shares: the event writer (NDJSON out, stamped, schema-checked),
 *                          the event draft, and the provider's stdout split into bounded byte lines (R1.2, R7.5)
 * - adapter-kit/read-request.ts            the request file read and checked against the protocol (R1.2)
 * - adapter-kit/failure-before-provider.ts an init + error when the provider cannot be started: failure spoken in the protocol
 * - adapter-kit/open-session.ts            an invocation's first steps: request read, prompt matched, failures spoken (R5.4)
 * - adapter-kit/resolve-provider.ts        the provider binary on the constructed PATH, with its version and digest (R10.7)
 * - adapter-kit/private-files.ts          an adapter's private files: outside the workspace, exclusive 0600, removed after (R10.1)
 * - adapter-kit/provider-child.ts         the provider spawned with the prompt on stdin, its exit grace, removal on interrupt, the last word (R1.3, R10.1)
 * - adapter-kit/provider-lines.ts         the provider's stdout as numbered text lines, or the defect to pass on (R7.5)
 * - adapter-kit/native-line-mapping.ts    what every stream mapper shares: a line read as JSON, progress detail bounded, events held until the init (R7.5)
 * - adapter-kit/model-scenario.ts         a model-double scenario around the provider's own replies; hang, http-error; loading
 * - adapter-kit/scripted-model-server.ts   the HTTP plumbing of every provider's model double: loopback, scenario routes behind opaque tokens, stop
 * - coverage/*             command coverage: check commands against the allowance (R9)
 * - supervise/supervise-check.ts one acceptance check (not a protocol speaker) under the adapter's supervision, inside the boundary when given (R13.3, R12)
 * - environment-record.ts    the recorded account of a child's environment: every name it received (R5.1, R6)
 * - residuals.ts             what a constructed environment does not buy, named on every attempt (R5.3), and what the process-group fallback adds
 *
 * What this package does not claim: that the evidence boundary (R12) denies the network, Unix
 * sockets or reads outside the product home (its named residuals), or anything at all without it
 * (R5.3); that a program run by another program is seen by command coverage (R9.3).
 */
export * from './capabilities.js';
export * from './schema-pieces.js';
export * from './candidate-origin.js';
export * from './protocol/version.js';
export * from './protocol/manifest.js';
export * from './protocol/request.js';
export * from './protocol/events.js';
export * from './read-manifest.js';
export * from './regular-file.js';
export * from './path-entries.js';
export * from './failure-words.js';
export * from './negotiate.js';
export * from './supervise/attempt.js';
export * from './supervise/options.js';
export * from './outcome.js';
export * from './classify.js';
export * from './result.js';
export * from './schema-errors.js';
export * from './content-digest.js';
export * from './durable-write.js';
export * from './make-directories.js';
export * from './executable-file.js';
export * from './file-identity.js';
export * from './digest-cache.js';
export * from './suite/driver.js';
export * from './stream/line-splitter.js';
export * from './stream/event-stream-reader.js';
export * from './stream/read-event-stream.js';
export * from './stream/refusal-tally.js';
export * from './coverage/index.js';
export * from './supervise/supervise-adapter.js';
export * from './attempt/attempt-files.js';
export * from './attempt/attempt-request.js';
export * from './attempt/run-attempt.js';
export { EvidenceWriteError } from './supervise/stream-tee.js';
export * from './supervise/probe-containment.js';
export { DEFAULT_KEEP_BOUND_BYTES, KEEP_BOUND_VARIABLE, readKeepBound } from './supervise/keep-bound.js';
export * from './supervise/find-attempt-processes.js';
export * from './supervise/boundary-record.js';
export * from './supervise/boundary-probe.js';
export * from './supervise/bwrap-boundary.js';
export { withHiddenPaths, withReadOnlyPaths } from './supervise/boundary-after-probe.js';
export * from './supervise/product-home-views.js';
export * from './supervise/adapter-reachable.js';
export * from './supervise/managed-paths.js';
export * from './supervise/writable-paths-remembered.js';
export * from './supervise/supervisor-protected-locations.js';
export { WARDEN_NAME } from './supervise/supervisor-death-warden.js';
export * from './supervise/enclosing-git-directory.js';
export { resolvedThroughLinks } from './supervise/resolved-through-links.js';
export * from './fixture-adapter-path.js';
export * from './package-root.js';
export * from './adapter-kit/event-draft.js';
export * from './adapter-kit/event-writer.js';
export * from './adapter-kit/native-lines.js';
export * from './adapter-kit/read-request.js';
export * from './adapter-kit/failure-before-provider.js';
export * from './adapter-kit/open-session.js';
export * from './adapter-kit/resolve-provider.js';
export * from './adapter-kit/private-files.js';
export * from './adapter-kit/provider-child.js';
export * from './adapter-kit/provider-lines.js';
export * from './adapter-kit/native-line-mapping.js';
export * from './adapter-kit/model-scenario.js';
export * from './adapter-kit/scripted-model-server.js';
export * from './suite/index.js';
export * from './qualification/provider-identity.js';
export * from './environment-record.js';
export * from './residuals.js';
export * from './supervise/supervise-check.js';
