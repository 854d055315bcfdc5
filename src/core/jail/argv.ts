/**
 * The jail's command line (docs/decisions/0054): `unshare` makes a user and a mount namespace
 * keeping its capabilities, a small sh stage mounts each path read-only over itself, then drops
 * every capability and execs the command as the caller's own uid. Without capabilities the command
 * cannot unmount or remount, and any namespace it makes itself gets these mounts locked. A keeper
 * left behind in the jail binds a path again when the parent asks (src/jail/run.ts). Paths and
 * the command travel as arguments, never inside the script, so spaces and newlines are safe. Pure.
 */

/** Exit code when the jail itself cannot be set up; the command did not run. */
export const JAIL_SETUP_FAILED = 125;

// $1: the keeper's fifo; $2: how many paths follow; then the paths; then the command. The keeper
// (a background copy of this shell, which keeps the capabilities) reads 1-based path numbers from
// the fifo and binds that path again: a number, never a path, so the jailed command cannot make
// it mount anything outside the plan. It ends when the parent closes the fifo.
const STAGE = `fifo=$1; n=$2; shift 2
bind() { mount --bind -o ro -- "$1" "$1"; }
i=0
for p do
  [ "$i" -ge "$n" ] && break
  i=$((i + 1))
  [ -e "$p" ] || continue
  bind "$p" || {
    printf 'tandem jail: cannot make %s read-only, so the command did not run; see tandem doctor (kernel guard)\\n' "$p" >&2
    exit ${JAIL_SETUP_FAILED}
  }
done
keep() {
  exec 3<"$fifo"
  while read -r k <&3; do
    case $k in '' | *[!0-9]*) continue ;; esac
    [ "$k" -ge 1 ] && [ "$k" -le "$1" ] || continue
    (shift "$k"; [ -e "$1" ] && bind "$1")
  done
}
[ -p "$fifo" ] && (keep "$n" "$@") </dev/null >/dev/null 2>&1 &
shift "$n"
# A working directory entered before a bind stays on the writable mount: enter it again.
cd -- "$PWD" 2>/dev/null || cd /
exec setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all -- "$@"`;

/** The program and arguments that run `command` with `paths` read-only. */
export function jailArgv(
  paths: readonly string[],
  command: readonly string[],
  fifo = "",
): { file: string; args: string[] } {
  return {
    file: "unshare",
    args: [
      "--map-current-user",
      "--mount",
      "--keep-caps",
      "--propagation",
      "private",
      "--",
      "sh",
      "-c",
      STAGE,
      "tandem-jail",
      fifo,
      String(paths.length),
      ...paths,
      ...command,
    ],
  };
}
