import { type Resolved, requireCaller, resolveCaller } from "../sessions/resolve.js";
import type { Db } from "../store/db.js";
import type { Io, Project } from "./context.js";

/** Resolves the session a CLI command acts for (`--session`, env, process ancestry, single live). */
export function callerSession(db: Db, io: Io, project: Project, flag: string | undefined): Resolved {
  return requireCaller(db, {
    flag,
    env: io.env,
    pid: io.pid,
    freshnessSeconds: project.loaded.config.freshnessSeconds,
    allowSingleLive: true,
  });
}

/** The caller's own session, without guessing the single live one: null for a person's shell. */
export function ownSession(db: Db, io: Io, project: Project, flag: string | undefined): Resolved | null {
  return resolveCaller(db, {
    flag,
    env: io.env,
    pid: io.pid,
    freshnessSeconds: project.loaded.config.freshnessSeconds,
    allowSingleLive: false,
  });
}
