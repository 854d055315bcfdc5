import { CLIENT_NAMES } from "../clients/index.js";
import { DEFAULT_CONFIG } from "../config/schema.js";
import { type InitRecord, templateInit } from "./init-record.js";

/**
 * The `.tandem/config.jsonc` that `tandem init` creates: every key of docs/product.md §3, commented out
 * with its default and meaning, so the file parses to an empty config (all defaults) and a user
 * changes a setting by uncommenting one line. Defaults come from DEFAULT_CONFIG so the two cannot
 * drift apart.
 */

const d = DEFAULT_CONFIG;
const v = (value: unknown): string => JSON.stringify(value);

const TEMPLATE = `// Tandem project configuration, shared by every agent working in this repository.
// Commit this file. Every key is optional: the values shown are the defaults.
// To change a setting, uncomment its line (and the lines of the objects around it).
{
@INIT@
  // "agents": {
  //   // Whether Stop hooks may block the end of a turn: "enforce", "observe" or "off" (Codex never blocks).
  //   "stopRitual": ${v(d.stopRitual)},
  //   // The ritual requires \`tandem status --end-turn\` evidence; env TANDEM_REQUIRE_GIT_FINALIZATION=1|0.
  //   "requireGitFinalization": ${v(d.requireGitFinalization)},
  //   // Extra roots checked at end of turn, relative to this root: [{ "path": "out", "disposition": "output" }]
  //   // ("git" = a repository whose work must be committed, "output" = generated files).
  //   "finalizationRoots": ${v(d.finalizationRoots)},
  //   // Seconds after which a silent session without a live process is stale; env TANDEM_FRESHNESS.
  //   "freshnessSeconds": ${v(d.freshnessSeconds)},
  //   // On an internal error in a gating hook, deny instead of allow; env TANDEM_FAIL_CLOSED=1|0.
  //   "failClosed": ${v(d.failClosed)},
  //   // Seconds a hook waits for another process's lock on the store before refusing the edit;
  //   // env TANDEM_STORE_LOCK_SECONDS.
  //   "storeLockSeconds": ${v(d.storeLockSeconds)},
  //   // A write to a path a session in another checkout claims or has dirty: "warn", "block" or
  //   // "off"; env TANDEM_REMOTE_CLAIMS.
  //   "remoteClaims": ${v(d.remoteClaims)}
  // },
  // "remote": {
  //   // Share presence, claims and leases with other clones through the Git remote (docs/decisions/0014).
  //   "enabled": ${v(d.remoteEnabled)},
  //   // The remote to share through; null: the current branch's remote, else origin.
  //   "name": ${v(d.remoteName)},
  //   // A background sync round runs at most this often (and on session start/end, claim changes).
  //   "intervalSeconds": ${v(d.remoteIntervalSeconds)},
  //   // Seconds after which a fetch or push of a sync round is given up.
  //   "timeoutSeconds": ${v(d.remoteTimeoutSeconds)},
  //   // \`tandem sync --prune\` deletes presence of checkouts silent this many days.
  //   "pruneDays": ${v(d.remotePruneDays)},
  //   // Minutes after which another checkout's presence is ignored.
  //   "presenceTtlMinutes": ${v(d.remotePresenceTtlMinutes)},
  //   // Branches every branch merges into: work there meets work on any branch.
  //   "targetBranches": ${v(d.remoteTargetBranches)}
  // },
  // "land": {
  //   // A shell command \`tandem land\` runs on the rebased result, in a private worktree, before it
  //   // pushes (e.g. "npm test"); a failing check pushes nothing (docs/land.md). Env TANDEM_LAND_CHECK.
  //   "check": ${v(d.landCheck)},
  //   // Seconds after which the check is killed and the landing refused; env TANDEM_LAND_CHECK_TIMEOUT.
  //   "checkTimeoutSeconds": ${v(d.landCheckTimeoutSeconds)}
  // },
  // "store": {
  //   // Run \`tandem gc\` (30-day retention) in the background at most once a day.
  //   "autoGc": ${v(d.autoGc)}
  // },
  // "server": {
  //   // Answer hooks through this repository's resident server (docs/server.md); false keeps
  //   // every hook in Node. Env TANDEM_SERVER=1|0.
  //   "enabled": ${v(d.serverEnabled)},
  //   // Minutes without a request after which the server exits.
  //   "idleMinutes": ${v(d.serverIdleMinutes)}
  // },
  // "subagents": {
  //   // Where child worktrees are created. Default: $XDG_STATE_HOME/tandem/worktrees/<repo>
  //   // (~/.local/state/...), outside .git where agents may edit; the value below is an example.
  //   "worktreeRoot": "../worktrees",
  //   // Command and extra args used to launch each client headless (default: built in), e.g.
  //   // { "codex": { "command": "codex", "args": ["--model", "gpt-5.5"] } }; keys: ${[...CLIENT_NAMES, "exec"].join(", ")}.
  //   "clients": ${v(d.clients)},
  //   "capture": {
  //     // Byte cap of a child worktree's diff.
  //     "maxPatchBytes": ${v(d.maxPatchBytes)},
  //     // On-disk size bound of a child's uncommitted files, checked before capture.
  //     "maxDirtyBytes": ${v(d.maxDirtyBytes)}
  //   }
  // }
}
`;

/** Without an init record: every key commented out, so it parses to an empty config. */
export const CONFIG_TEMPLATE = TEMPLATE.replace("@INIT@\n", "");

/** What `tandem init` writes: the template with the wiring it chose recorded. */
export function configTemplate(record: InitRecord): string {
  return TEMPLATE.replace("@INIT@", templateInit(record));
}
