/**
 * What `tandem deinit` leaves running or published, said after its report so nothing surprises
 * a person later: a resident server still up, and refs Tandem pushed to the remote.
 */
import { existsSync } from "node:fs";
import { loadConfig } from "../../config/load.js";
import { resolveRoot, stateDirOf } from "../../config/root.js";
import { spanned } from "../../core/printed.js";
import { git } from "../../git/run.js";
import { remoteOf } from "../../remote/objects.js";
import { addrFile } from "../../resident/paths.js";
import { processAlive } from "../../sessions/proc.js";
import { openDb } from "../../store/db.js";
import { serverRow } from "../../store/server/row.js";
import { printerOf } from "../../wiring/agent-shell.js";

type Env = Readonly<Record<string, string | undefined>>;

/** Whether this repository's resident server is up (it published its address and its pid lives). */
function serverRunning(stateDir: string): boolean {
  if (!existsSync(addrFile(stateDir))) return false;
  try {
    const db = openDb(stateDir, { readonly: true, lockSeconds: 0 });
    try {
      const row = serverRow(db);
      return row !== null && processAlive(row.pid, row.pid_start);
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

/** Whether Tandem ever shared through a remote here: its refs/tandem/* copies exist locally. */
function sharedThroughRemote(root: string): boolean {
  return git(root, ["for-each-ref", "--count=1", "--format=%(refname)", "refs/tandem/"]).trim() !== "";
}

function remoteName(root: string, env: Env): string {
  try {
    return remoteOf(root, loadConfig(root, env).config.remoteName) ?? "<remote>";
  } catch {
    return "<remote>";
  }
}

/** The lines to print after deinit's report; none when nothing is left. */
export function leftBehind(root: string, env: Env): string[] {
  const out: string[] = [];
  const stateDir = stateDirOf(resolveRoot({ cwd: root, env }));
  if (serverRunning(stateDir))
    out.push(
      // deinit is a person's command and keeps the config, so the launcher init recorded still speaks.
      `Tandem's server for this repository is still running (it exits by itself once idle); ${spanned(printerOf(root, stateDir, "person"), "serve", "--stop")} stops it now.`,
    );
  if (sharedThroughRemote(root)) {
    const remote = remoteName(root, env);
    out.push(
      `Presence and leases Tandem pushed stay on ${remote} under refs/tandem/* (deinit does not touch the remote). To delete them: \`git ls-remote ${remote} 'refs/tandem/*'\` lists them, \`git push ${remote} --delete REF...\` removes them.`,
    );
  }
  return out;
}
