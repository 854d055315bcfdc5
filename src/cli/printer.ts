import type { Printer, Reader } from "../core/printed.js";
import type { Resolved } from "../sessions/resolve.js";
import { printerOf } from "../wiring/agent-shell.js";
import type { Project } from "./context.js";

/**
 * Who reads a command's output: the agent whose process ran it (its client's variables or its
 * process among the caller's ancestors), else a person, who may also name a session with
 * `--session`. Their printed commands differ (src/core/printed.ts).
 */
export function readerOf(caller: Resolved | null): Reader {
  return caller && caller.via !== "flag" && caller.via !== "single-live" ? "agent" : "person";
}

/** How this command's output spells Tandem commands for the caller. */
export function callerPrinter(project: Project, caller: Resolved | null): Printer {
  return printerOf(project.resolved.root, project.stateDir, readerOf(caller));
}
