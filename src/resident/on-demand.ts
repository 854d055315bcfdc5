import { loadConfig } from "../config/load.js";
import { resolveRoot, stateDirOf } from "../config/root.js";
import type { RequestOwner } from "../store/ledger/requests.js";
import { bundledEntry } from "../version.js";
import { noteDeadServer } from "./crashes.js";
import { requestIdOf } from "./request-id.js";
import { startServer } from "./start.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The request the thin client may already have given the server (it sets TANDEM_THIN_REQUEST to
 * its pid when the server took the request but did not answer): the Node path runs it once.
 */
export function fallbackRequest(env: Env): { id: string; owner: RequestOwner } | null {
  const pid = Number(env.TANDEM_THIN_REQUEST);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  const id = requestIdOf(pid);
  return id ? { id, owner: "node" } : null;
}

/**
 * The process a hook's agent is found from: the thin client that ran this Node program (it sets
 * TANDEM_THIN_PID to its pid, the pid the server is given), so both paths find the same agent; else
 * this process. Only this process or its parent may be named, so the variable cannot point a
 * hook at another agent's process tree.
 */
export function callerPid(env: Env, self = process.pid, parent = process.ppid): number {
  const pid = Number(env.TANDEM_THIN_PID);
  return pid === parent ? parent : self;
}

/**
 * After the Node path answered a thin client that found no server (TANDEM_THIN=start), records a
 * server that died without cleaning up, and starts one for next time. Never fails the caller: the
 * answer is already made.
 */
export function startServerOnDemand(env: Env, cwd: string, now = Date.now()): void {
  if (env.TANDEM_THIN !== "start" || env.TANDEM_SERVER === "0") return;
  try {
    const entry = bundledEntry();
    if (!entry) return;
    const resolved = resolveRoot({ cwd, env, hook: true });
    if (!resolved.repo) return;
    // Already read by the call just answered: validated files are kept by their identity.
    if (!loadConfig(resolved.root, env).config.serverEnabled) return;
    const stateDir = stateDirOf(resolved);
    // The server that should have answered may have died without a word (killed): say so once.
    noteDeadServer(stateDir, new Date(now));
    startServer({ entry, root: resolved.root, stateDir, env, now });
  } catch {
    // No repository, an unwritable state directory: the next call tries again.
  }
}
