import { type Printer, spanned } from "../core/printed.js";
import { crashFile, readCrashes } from "../resident/crashes.js";
import { logFile } from "../resident/paths.js";
import type { Finding } from "./finding.js";

/** The resident server's crashes since `since` (docs/server.md §7): each is a bug or a kill to look into. */
export function serverCrashFindings(stateDir: string, since: number, p: Printer): Finding[] {
  const crashes = readCrashes(stateDir, since);
  const when = new Date(since).toISOString();
  const last = crashes.at(-1);
  if (!last) return [{ level: "ok", check: "resident server", detail: `no crash since ${when}` }];
  return [
    {
      level: "problem",
      check: "resident server",
      detail: `${crashes.length} crash(es) since ${when}; the last at ${last.ts} (pid ${last.pid}, found ${last.found}): ${last.message}`,
      fix: `hooks were answered through Node meanwhile and the next hook started a new server, so no decision was skipped; see ${logFile(stateDir)} around that time and ${crashFile(stateDir)}, and report the message if it repeats. ${spanned(p, "doctor", "--since", { slot: "WHEN" })} (a later time) stops counting it.`,
    },
  ];
}
