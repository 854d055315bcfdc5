/**
 * The jail launcher (docs/decisions/0056): a small bash script in the state directory that runs
 * one shell command where the paths of a plan file are read-only, without starting Node. The
 * pre-tool hook writes the plan (NUL-separated physical paths) and rewrites the agent's command to
 * `bash <launcher> <plan> <command>`; the launcher makes a user and mount namespace, binds each
 * path read-only over itself, drops every capability and runs `bash -c <command>` as the caller's
 * own uid, so stdout, stderr and the exit code are the command's own. Pure text.
 */
import { JAIL_SETUP_FAILED } from "./argv.js";

/** First line after the shebang; a launcher carrying it is ours to rewrite. */
export const LAUNCHER_MARK =
  "# Written by Tandem (docs/decisions/0056): runs one command in the kernel jail.";

/** Text inside the script's single-quoted printf format: quotes, `%` and `\` escaped. */
function inFormat(text: string): string {
  return text.replaceAll("\\", "\\\\").replaceAll("%", "%%").replaceAll("'", "'\\''");
}

/** The refusal's printf format; `doctor` is the doctor command as the jailed agent's shell runs it. */
function refuseFormat(doctor: string): string {
  return `tandem jail: %s, so the command did not run; run \`${inFormat(doctor)}\` (kernel guard), or set "guard": "reader" in .tandem/config.jsonc to let commands run unjailed\\n`;
}

// Stage 1: check the arguments and the plan, then run this script again under unshare with
// capabilities in the new namespace. Stage 2: bind each plan path read-only; with --follow, leave a
// keeper behind (a background copy of this shell that keeps the capabilities) which, whenever a
// line arrives on the fifo, makes the mounts match the plan file again: it binds what the plan
// lists and is not mounted (a new claim, or a file an owner replaced by rename) and unbinds what
// it bound that the plan no longer lists (a released claim). The plan lies in the state
// directory, read-only inside, so a jailed process can ask for a sync but never choose a path.
// Then re-enter the working directory through the new mounts (a cwd taken before a bind stays on
// the writable mount), drop every capability and run the command.
export function launcherText(doctor: string): string {
  return `#!/usr/bin/env bash
${LAUNCHER_MARK}
# Usage: bash jail PLAN COMMAND (run with bash -c), bash jail --follow FIFO PLAN PROGRAM ARGS...,
# or bash jail --start PLAN AGENT (a session's standing jail: prints its holder's pid).
# PLAN lists the read-only paths, each ended by a NUL byte.
refuse() { printf '${refuseFormat(doctor)}' "$1" >&2; exit ${JAIL_SETUP_FAILED}; }
if [ "\${1-}" = --start ]; then
  [ "$#" -eq 3 ] || refuse "--start takes a plan and the agent's pid"
  [ -r "$2" ] || refuse "the jail's plan $2 cannot be read"
  # The holder leaves its own session (no signal for the hook's process group reaches it) and
  # says its pid once its binds are made.
  exec 3< <(exec setsid unshare --map-current-user --mount --keep-caps --propagation private -- bash "$0" --stage --hold "$2" "$3" </dev/null 2>/dev/null)
  IFS= read -r pid <&3 || refuse "the session's jail did not start"
  printf '%s\n' "$pid"
  exit 0
fi
if [ "\${1-}" != --stage ]; then
  if [ "\${1-}" = --follow ]; then
    [ "$#" -ge 4 ] || refuse "--follow takes a fifo, a plan and a program"
    [ -p "$2" ] || refuse "the keeper's fifo $2 is missing"
    plan=$3
  else
    [ "$#" -eq 2 ] || refuse "the launcher takes a plan and a command, it got $# arguments"
    plan=$1
  fi
  [ -r "$plan" ] || refuse "the jail's plan $plan cannot be read"
  shopt -s execfail
  exec unshare --map-current-user --mount --keep-caps --propagation private -- bash "$0" --stage "$@"
  refuse "unshare could not start (install util-linux)"
fi
shift
bind() { mount --bind -o ro -- "$1" "$1"; }
declare -A bound=()
mounted() {
  declare -gA here=()
  local a b c d mp rest
  while read -r a b c d mp rest; do printf -v mp '%b' "\${mp//\\\\/\\\\0}"; here[$mp]=1; done </proc/self/mountinfo
}
sync_plan() {
  mounted
  declare -A want=()
  while IFS= read -r -d '' p; do
    want[$p]=1
    [ -e "$p" ] && [ -z "\${here[$p]-}" ] && bind "$p" && bound[$p]=1
  done <"$1"
  for p in "\${!bound[@]}"; do
    [ -n "\${want[$p]-}" ] || { umount -l -- "$p" && unset -v 'bound[$p]'; }
  done
}
follow=
hold=
if [ "$1" = --follow ]; then follow=$2; shift 2; fi
if [ "$1" = --hold ]; then hold=1; shift; fi
plan=$1
shift
# The credentials (decision 0064): the plan's view of the secrets directory (its own key as
# \`self\`, nothing else) is bound read-only over the whole directory, after the state directory's
# bind (which would cover it).
state=\${0%/*}
state=\${state%/*}
secrets=$state/secrets
name=\${plan##*/}
name=\${name%.plan}
view=$secrets/views/$name
[ -d "$view" ] || refuse "the jail's view of Tandem's secrets ($view) is missing"
# Every bind from one mount process when the plan's fstab is there (a process each costs ~9 ms on
# a busy machine); its last line covers the secrets. Else, or when one failed (a path gone since
# the plan), one at a time, and the secrets covered again on top.
fstab=\${plan%.plan}.fstab
if [ -f "$fstab" ] && mount --all --fstab "$fstab" 2>/dev/null; then
  while IFS= read -r -d '' p; do [ -e "$p" ] && bound[$p]=1; done <"$plan"
else
  mounted
  while IFS= read -r -d '' p; do
    [ -e "$p" ] || continue
    [ -n "\${here[$p]-}" ] || bind "$p" || refuse "cannot make $p read-only"
    bound[$p]=1
  done <"$plan"
  # Gone from sight only when the secrets are already covered (it was there before any mount).
  if [ -d "$view" ]; then
    mount --bind -o ro -- "$view" "$secrets" || refuse "cannot cover the sessions' keys"
  fi
fi
if [ -n "$follow" ]; then
  (exec 3<"$follow"; while read -r _ <&3; do sync_plan "$plan"; done) </dev/null >/dev/null 2>&1 &
fi
# A standing jail's holder: says its pid, then waits, without capabilities, for the agent to end.
# Each command enters its namespaces with nsenter (decision 0079).
if [ -n "$hold" ]; then
  printf '%s\n' "$$"
  exec >/dev/null
  cd /
  exec setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all -- tail --pid="$1" -f /dev/null
fi
cd -- "$PWD" 2>/dev/null || cd /
if [ -n "$follow" ]; then
  exec setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all -- "$@"
fi
exec setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all -- bash -c "$1"
`;
}

/** A path as fstab(5) spells it: space, tab, newline and backslash as octal escapes. */
export function fstabEscape(path: string): string {
  return path.replace(/[\\ \t\n]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, "0")}`);
}

/**
 * The plan as an fstab for `mount --all --fstab`: each path bound read-only over itself, then
 * each cover (a directory bound read-only over another: the jail's view of the secrets), in order.
 */
export function fstabText(
  paths: readonly string[],
  covers: readonly { source: string; target: string }[] = [],
): string {
  const line = (source: string, target: string) =>
    `${fstabEscape(source)} ${fstabEscape(target)} none bind,ro 0 0\n`;
  return [...paths.map((p) => line(p, p)), ...covers.map((c) => line(c.source, c.target))].join("");
}

/** The plan file's bytes: each path ended by a NUL (a path may hold any other byte). */
export function planFileText(paths: readonly string[]): string {
  return paths.map((p) => `${p}\0`).join("");
}
