import { type Resolved, requireCaller, resolveCaller } from "../sessions/resolve.js";
import type { Db } from "../store/db.js";
import type { Io, Project } from "./context.js";
import { printersOf } from "./printer.js";

/**
 * What the command does for the session it resolves: `command` names a command that writes for
 * it (release, task, end of turn, reserve, sub), which is refused, not overruled, when it names
 * another session from inside an agent (core/sessions/identity.ts); null for one that only reads.
 */
export type Writes = string | null;

function request(
  io: Io,
  project: Project,
  flag: string | undefined,
  writes: Writes,
  allowSingleLive: boolean,
) {
  return {
    flag,
    env: io.env,
    pid: io.pid,
    ...(io.jail === undefined ? {} : { jail: io.jail }),
    freshnessSeconds: project.loaded.config.freshnessSeconds,
    allowSingleLive,
    printerFor: printersOf(project),
    ...(writes === null ? {} : { command: writes }),
  };
}

/** Says so on stderr when the process ancestry overruled the session the command named. */
function noted(io: Io, r: Resolved | null): Resolved | null {
  if (r?.note) io.err(`tandem: ${r.note}\n`);
  return r;
}

/** Resolves the session a CLI command acts for (`--session`, env, process ancestry, single live). */
export function callerSession(
  db: Db,
  io: Io,
  project: Project,
  flag: string | undefined,
  writes: Writes,
): Resolved {
  return noted(io, requireCaller(db, request(io, project, flag, writes, true)))!;
}

/** The caller's own session, without guessing the single live one: null for a person's shell. */
export function ownSession(
  db: Db,
  io: Io,
  project: Project,
  flag: string | undefined,
  writes: Writes,
): Resolved | null {
  return noted(io, resolveCaller(db, request(io, project, flag, writes, false)));
}
