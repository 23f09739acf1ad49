import { ProbeCheckSchema, type ProbeCheck } from '@statecraft/adapter';
import { ATTEMPT_TAG_VARIABLE } from '@statecraft/adapter';
import { DENIED_ATTACH_CALLS, DENIED_KEYRING_CALLS } from './seccomp-filter.js';

/** What a held `keyrings` check says: the calls the filter denies are named by the mechanism, the filter's presence measured. */
const KEYRING_HELD = `a seccomp filter is in force (Seccomp 2), denying ${DENIED_KEYRING_CALLS.join(', ')} (and ${DENIED_ATTACH_CALLS.join(', ')})`;

/** The line that opens a gate: an `on-go` probe's checks, and a gated launch's command (GATED_CLOSER_SCRIPT). */
export const GATE_GO = 'go';

/**
 * The self-test run inside the very sandbox an adapter is about to get (R12), before each launch.
 * A POSIX shell script using only shell built-ins, so a constructed PATH cannot turn a missing
 * `cat` into a read that "failed" — a false pass. A read is tried as a redirection of `true`
 * (a regular built-in: a failed redirection is a status, not the shell's exit).
 *
 * Arguments: canary file, a path outside the allowed places to try writing, a path in the product
 * home to try writing, a path in the workspace to try writing, the supervisor's pid and its start
 * time (clock ticks since boot, field 22 of /proc/<pid>/stat), `on-go` or `at-once`, how many
seccomp filters a process inside must be under (the supervisor's own and the keyring filter;
`unknown` when the kernel does not count them), then one
 * argument per other mount reaching the home (product-home-views.ts):
 * `whole:<the canary through it>`, or `part:<a directory of the home>` that must not be entered;
 * then the homes (`operator-home`, `other-home`): `home:<a canary planted in the operator's home>`
 * that must not open, `gone:<an entry of another home>` that must not be there.
 * Each check prints one line: `<check> held|failed <detail>`. The supervisor removes
 * any file a write left. With `on-go` the checks wait for the line `go` on stdin: the sandbox is
 * set up while git adds the worktree into its (empty) directory, and nothing is written there
 * before git has; any other line, or none, ends the probe with no check (read as not held).
 *
 * supervisor-hidden knows the supervisor by its pid and its start time, never by the number alone:
 * the pid is numbered in the supervisor's namespace, and in the sandbox's own it can be a sandbox
 * process (bwrap's init is pid 1, which a supervisor that is a container's pid 1 was taken for).
 * A process at that number that started at another clock tick is not the supervisor (every sandbox
 * process starts after it: the supervisor has loaded node before it spawns anything); one that
 * started at the same tick is (the sandbox shares its namespace); one whose start cannot be read,
 * while the number answers `kill -0` or has a /proc entry, counts as seen. /proc/<pid>/stat is read
 * because anyone can read it: the supervisor's environment and namespace links are kept from a
 * process in another user namespace, so a nonce looked for there would never be found. (The
 * probe's own PID namespace link would answer too, but no built-in reads a link: an exec more.)
 */
export const PROBE_SCRIPT = `
canary=$1 outside=$2 inhome=$3 inworkspace=$4 spid=$5 sstart=$6 mode=$7 filters=$8
shift 8
if [ "$mode" = on-go ]; then read -r go || exit 0; [ "$go" = ${GATE_GO} ] || exit 0; fi
say() { printf '%s %s %s\\n' "$1" "$2" "$3"; }
if { true; } 2>/dev/null < "$canary"; then say canary-by-path failed "read $canary"; else say canary-by-path held "cannot open $canary"; fi
if { true; } 2>/dev/null < "/proc/self/root$canary"; then say canary-by-proc-root failed "read /proc/self/root$canary"; else say canary-by-proc-root held "cannot open /proc/self/root$canary"; fi
reached='' denied=''
for view in "$@"; do case $view in
  whole:*) f=\${view#whole:}; if { true; } 2>/dev/null < "$f"; then reached="$reached read $f;"; else denied="$denied cannot open $f;"; fi ;;
  part:*) d=\${view#part:}; if (cd "$d") 2>/dev/null; then reached="$reached entered $d;"; else denied="$denied cannot enter $d;"; fi ;;
esac; done
if [ -n "$reached" ]; then say canary-by-view failed "$reached"; elif [ -n "$denied" ]; then say canary-by-view held "$denied"; else say canary-by-view held "no other mount reaches the product home"; fi
seen='' hidden=''
for view in "$@"; do case $view in
  home:*) f=\${view#home:}; if { true; } 2>/dev/null < "$f"; then seen="$seen read $f;"; else hidden="$hidden cannot open $f;"; fi ;;
  gone:*) f=\${view#gone:}; if [ -e "$f" ] || [ -L "$f" ]; then seen="$seen sees $f;"; else hidden="$hidden no $f;"; fi ;;
esac; done
if [ -n "$seen" ]; then say home-hidden failed "$seen"; elif [ -n "$hidden" ]; then say home-hidden held "$hidden"; else say home-hidden held "no home to hide"; fi
if { true; } 2>/dev/null > "$outside"; then say write-outside failed "created $outside"; else say write-outside held "cannot create $outside"; fi
if { true; } 2>/dev/null > "$inhome"; then say write-product-home failed "created $inhome"; else say write-product-home held "cannot create $inhome"; fi
if { true; } 2>/dev/null > "$inworkspace"; then say write-workspace held "created $inworkspace"; else say write-workspace failed "cannot create $inworkspace"; fi
# The start time (field 22) is the 20th field after the command name, which may hold spaces and parens.
started_at() { started=\${20-}; }
stat='' started=''
read -r stat 2>/dev/null < "/proc/$spid/stat" && started_at \${stat##*) }
if [ -n "$started" ] && [ "$started" != "$sstart" ]; then say supervisor-hidden held "pid $spid here is not the supervisor: it started at clock tick $started, the supervisor at $sstart"
elif [ -n "$started" ]; then say supervisor-hidden failed "pid $spid is visible: it started at clock tick $sstart, as the supervisor did"
elif kill -0 "$spid" 2>/dev/null || [ -e "/proc/$spid" ]; then say supervisor-hidden failed "pid $spid is visible: its start time cannot be read to tell it from the supervisor"
else say supervisor-hidden held "pid $spid is not visible"; fi
cap=unreadable seccomp=unreadable count=unreadable
while read -r key value; do case $key in CapEff:) cap=$value ;; Seccomp:) seccomp=$value ;; Seccomp_filters:) count=$value ;; esac; done < /proc/self/status
if [ "$cap" = 0000000000000000 ]; then say no-capabilities held "CapEff $cap"; else say no-capabilities failed "CapEff $cap"; fi
if { true; } 2>/dev/null < /proc/keys; then keys='/proc/keys can be opened'; else keys='/proc/keys cannot be opened'; fi
if [ "$seccomp" = 2 ] && { [ "$filters" = unknown ] || [ "$count" = "$filters" ]; } && [ "$keys" = '/proc/keys cannot be opened' ]; then
  say keyrings held "${KEYRING_HELD} ($count filters, the supervisor's and one more), $keys"
else say keyrings failed "Seccomp $seccomp (2: a filter), $count filters where $filters were expected, and $keys: the operator's keyrings may be in reach"; fi
open=''
for entry in /proc/$$/fd/*; do n=\${entry##*/}; case $n in 0|1|2) ;; *) if [ -e "$entry" ]; then open="$open $n"; fi ;; esac; done
if [ -z "$open" ]; then say descriptors-closed held "only 0, 1 and 2 are open"; else say descriptors-closed failed "open beyond stdio:$open"; fi
`;

/**
 * Closes every descriptor beyond stdio, then runs its arguments: an inherited descriptor reads
 * whatever it was opened on, whatever the mounts say (docs/facts.md item 17). Bash, since dash parses only
 * one-digit descriptors in a redirection; `$$` is this shell, so the glob lists its own table.
 * Bash exports PWD and SHLVL of its own accord (and sets SHLVL again as it execs), so the last
 * step is `env -u` for each of them the constructed environment did not have — its names arrive
 * as the first argument, `env`'s path as the second — and the child receives exactly the recorded
 * names (R5.1).
 */
export const CLOSER_SCRIPT =
  'keep=" $1 "; env=$2; shift 2; for f in /proc/$$/fd/*; do n=${f##*/}; if [ "$n" -gt 2 ]; then eval "exec $n>&-"; fi; done; ' +
  'drop=; for v in PWD OLDPWD SHLVL _; do case "$keep" in *" $v "*) ;; *) drop="$drop -u $v" ;; esac; done; exec "$env" $drop "$@"';

/**
 * CLOSER_SCRIPT behind a gate. Every launch in the boundary — an adapter, a check — starts behind
 * it: `run` sets the adapter's sandbox up beside the boundary's probe and the intent's append (the
 * adapter itself starts only after, R8.4); a suite sets each check up once the one before it has
 * ended (never while candidate code runs, run-suite.ts). Its closer first reads one line from stdin: only `go` lets it close descriptors and exec the
 * command; another line, or none (stdin closed), ends it with nothing started. Bash's `read` takes
 * a pipe a byte at a time, so what follows the line (the adapter's prompt) is left whole for the
 * command.
 *
 * Before it reads, it writes one byte to the descriptor its first argument names: the sandbox is
 * assembled and its closer is at the gate. A launch whose sandbox bwrap could not assemble (a path
 * it binds changed under it, which bwrap detects and dies on) never writes it, and is refused
 * before anything is appended rather than read as an attempt that ran (spawn-adapter.ts).
 *
 * The attempt's tag (R7.3) is its second argument, exported only once the gate opens: the sandbox
 * and the closer waiting at the gate carry no tag, so the sweep and the kill of an attempt's
 * processes never take a launch that has not started. What starts receives the tag with the rest of the
 * constructed environment, exactly as recorded (R5.1).
 */
export const GATED_CLOSER_SCRIPT = `printf r >&"$1" || exit 0; shift; IFS= read -r go || exit 0; [ "$go" = ${GATE_GO} ] || exit 0; export ${ATTEMPT_TAG_VARIABLE}="$1"; shift; ${CLOSER_SCRIPT}`;

const PROBE_CHECKS = ProbeCheckSchema.shape.check.options;

/**
 * Reads the probe's output into findings. A check that printed nothing, or printed something
 * else, did not hold: the probe's silence is never a pass.
 */
export function readProbeOutput(stdout: string): ProbeCheck[] {
  const seen = new Map<string, ProbeCheck>();
  for (const line of stdout.split('\n')) {
    const match = /^([a-z-]+) (held|failed) (.*)$/.exec(line);
    if (match === null) continue;
    const parsed = ProbeCheckSchema.safeParse({ check: match[1], held: match[2] === 'held', detail: match[3] });
    if (parsed.success && !seen.has(parsed.data.check)) seen.set(parsed.data.check, parsed.data);
  }
  return PROBE_CHECKS.map((check) => seen.get(check) ?? { check, held: false, detail: 'the probe reported nothing for this check' });
}
