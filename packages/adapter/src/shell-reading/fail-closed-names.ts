import { WRAPPER_PROGRAMS } from '../coverage/command-reading.js';

/**
 * The names a deny rule cannot judge a command by. The keywords and builtins come from bash's own
 * lists (GNU bash 5.2.15: `compgen -k`, `compgen -b`), every builtin read and classified, so they
 * are complete for that bash. The programs that run another are an open class: the seam's list
 * (command-reading.ts), R9.2's and those found to run `touch` given in their arguments.
 */

function words(list: string): ReadonlySet<string> {
  return new Set(list.split(/\s+/).filter((word) => word !== ''));
}

/** Every keyword `compgen -k` lists: each opens or continues a compound command whose commands a rule does not follow. */
export const SHELL_KEYWORDS = words('if then else elif fi case esac for select while until do done in function time { } ! [[ ]] coproc');

/** Programs whose job is to run another program, named in their arguments or read from their input: the seam's list (R9.2 and beyond). */
export const PROGRAMS_THAT_RUN_OTHERS: ReadonlySet<string> = new Set(WRAPPER_PROGRAMS);

/**
 * Builtins that run code from their arguments, or give a name a new meaning later in the command:
 * `trap`, `fc`, `mapfile -C` / `readarray -C`, `compgen -C`, `complete -C`, `bind -x`, `jobs -x`,
 * `alias`, `hash -p`, `enable`. (`eval`, `source`, `.`, `exec`, `command`, `builtin` are R9.2's
 * wrappers.) The other builtins do neither.
 */
export const BUILTINS_THAT_RUN_CODE = words('trap fc mapfile readarray compgen complete bind jobs alias hash enable');

/**
 * Builtins that read or set a variable named by an argument, or evaluate arithmetic: an array
 * subscript in that name or value is expanded again, so a command substitution built at run time
 * (`p=$'a[\x24(touch x)]'; read "$p"`) runs. Each was measured to; `export`, `readonly`, `getopts`
 * and `mapfile`'s array name were measured not to.
 */
export const BUILTINS_THAT_EVALUATE_NAMES = words('let declare typeset local read printf test [ unset wait');

/**
 * Variables whose value is run as code: a prompt bash expands, command substitutions included
 * (PS4 under `set -x`), a file a starting shell sources (BASH_ENV, ENV), a library the dynamic
 * loader loads into any program (LD_PRELOAD, LD_AUDIT).
 */
export const VARIABLES_RUN_AS_CODE = words('PS0 PS1 PS2 PS3 PS4 PROMPT_COMMAND BASH_ENV ENV LD_PRELOAD LD_AUDIT');
