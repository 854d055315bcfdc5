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

const REFUSE = `tandem jail: %s, so the command did not run; run \`tandem doctor\` (kernel guard), or set "guard": "reader" in .tandem/config.jsonc to let commands run unjailed\\n`;

// Stage 1 (no --stage): check the plan, then re-run this script under unshare with capabilities
// in the new namespace. Stage 2: bind each plan path read-only, re-enter the working directory
// through the new mounts (a cwd taken before a bind stays on the writable mount), drop every
// capability and run the command.
export const LAUNCHER_TEXT = `#!/usr/bin/env bash
${LAUNCHER_MARK}
# Usage: bash jail PLAN COMMAND. PLAN lists the read-only paths, each ended by a NUL byte.
refuse() { printf '${REFUSE}' "$1" >&2; exit ${JAIL_SETUP_FAILED}; }
if [ "\${1-}" != --stage ]; then
  [ "$#" -eq 2 ] || refuse "the launcher takes a plan and a command, it got $# arguments"
  [ -r "$1" ] || refuse "the jail's plan $1 cannot be read"
  shopt -s execfail
  exec unshare --map-current-user --mount --keep-caps --propagation private -- bash "$0" --stage "$@"
  refuse "unshare could not start (install util-linux)"
fi
plan=$2
while IFS= read -r -d '' p; do
  [ -e "$p" ] || continue
  mount --bind -o ro -- "$p" "$p" || refuse "cannot make $p read-only"
done < "$plan"
cd -- "$PWD" 2>/dev/null || cd /
exec setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all -- bash -c "$3"
`;

/** The plan file's bytes: each path ended by a NUL (a path may hold any other byte). */
export function planFileText(paths: readonly string[]): string {
  return paths.map((p) => `${p}\0`).join("");
}
