import { resolveRoot, stateDirOf } from "../config/root.js";
import { PLAIN, type Printer, type Reader } from "../core/printed.js";
import type { Resolved } from "../sessions/resolve.js";
import { printerOf } from "../wiring/agent-shell.js";
import type { Io, Project } from "./context.js";

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
