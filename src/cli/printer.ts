import { resolveRoot, stateDirOf } from "../config/root.js";
import { PLAIN, type Printer, type Reader } from "../core/printed.js";
import { envNamesSession, type Resolved, resolveCaller } from "../sessions/resolve.js";
import type { Db } from "../store/db.js";
import { printerOf } from "../wiring/agent-shell.js";
import { type Io, openProjectDb, type Project, releaseProjectDb } from "./context.js";

/**
 * Who reads a command's output: the agent whose process ran it (its client's variables or its
 * process among the caller's ancestors), else a person, who may also name a session with
 * `--session`. Their printed commands differ (src/core/printed.ts).
 */
export function readerOf(caller: Resolved | null): Reader {
  return caller && caller.via !== "flag" && caller.via !== "single-live" ? "agent" : "person";
}

/**
 * How `--help` spells its examples: for a person, from the launcher init recorded for the
 * repository the help is asked in; plain `tandem` outside one. Reads one file, starts nothing.
 */
export function helpPrinter(io: Pick<Io, "cwd" | "env">): Printer {
  try {
    const resolved = resolveRoot({ cwd: io.cwd, env: io.env });
    return printerOf(resolved.root, stateDirOf(resolved), "person");
  } catch {
    return PLAIN;
  }
}

/** How this command's output spells Tandem commands for the caller. */
export function callerPrinter(project: Project, caller: Resolved | null): Printer {
  return printerOf(project.resolved.root, project.stateDir, readerOf(caller));
}

/** This project's printer for either reader, as data for deciders that learn their reader later. */
export function printersOf(project: Project): (reader: Reader) => Printer {
  return (reader) => printerOf(project.resolved.root, project.stateDir, reader);
}

/**
 * For a command that acts for no session: the agent the store proves is calling (its variables or
 * its process among the ancestors), else a person. Without a store, its client's variables tell.
 */
export function provenPrinter(db: Db | null, io: Pick<Io, "env" | "pid">, project: Project): Printer {
  const printerFor = printersOf(project);
  if (!db) return printerFor(envNamesSession(io.env) ? "agent" : "person");
  try {
    const caller = resolveCaller(db, {
      env: io.env,
      pid: io.pid,
      freshnessSeconds: project.loaded.config.freshnessSeconds,
      allowSingleLive: false,
      printerFor,
    });
    return printerFor(readerOf(caller));
  } catch {
    // A variable naming no session: the command's own error says so; its text is for that agent.
    return printerFor("agent");
  }
}

/** `provenPrinter` for a command that has no store open: opens it to look, and gives it back. */
export function commandPrinter(io: Io, project: Project): Printer {
  let db: Db | null = null;
  try {
    db = openProjectDb(project, { create: false }, io);
  } catch {
    // A failing store is the command's own error to report; the variables still tell the reader.
  }
  try {
    return provenPrinter(db, io, project);
  } finally {
    if (db) releaseProjectDb(io, db);
  }
}
