import { existsSync } from "node:fs";
import type { Config } from "../config/schema.js";
import { type Printer, spanned } from "../core/printed.js";
import { type RemoteView, unknownLine } from "../core/remote/remote-view.js";
import { formatAge } from "../core/sessions/liveness.js";
import { readRemoteView } from "../remote/view-data.js";
import { sessionViews } from "../sessions/view.js";
import { dbFile, openDb } from "../store/db.js";
import type { Finding } from "./finding.js";

const check = "remote";

/**
 * Pure: how sharing presence through the Git remote stands. A failed round is a problem; an old
 * one too while agents work here (their hooks should have started rounds), else only a note.
 */
export function remoteFindings(v: RemoteView, liveHere: number, now: number, p: Printer): Finding[] {
  const through = v.remote ?? "the remote";
  switch (v.state) {
    case "off":
      return [
        { level: "ok", check, detail: "off (remote.enabled is false): presence stays on this machine" },
      ];
    case "no-remote":
      return [
        {
          level: "ok",
          check,
          detail: `no Git remote, so agents in other clones are not seen; to share presence, add one (\`git remote add origin URL\`) and run ${spanned(p, "sync")}`,
        },
      ];
    case "never":
      return [{ level: "info", check, detail: "no sync round has run yet", fix: v.unknown!.fix }];
    case "ok": {
      const when = v.lastSuccess === null ? "" : ` ${formatAge(now - v.lastSuccess)} ago`;
      return [
        {
          level: "ok",
          check,
          detail: `last sync with ${through}${when}: ${v.checkouts} other checkout(s) seen, ${v.sessions.length} live session(s) there, ${v.leases.length} lease(s)`,
        },
      ];
    }
    default: {
      const level = v.state === "failed" || liveHere > 0 ? "problem" : "info";
      return [{ level, check, detail: unknownLine(v.unknown!, now), fix: v.unknown!.fix }];
    }
  }
}

/** Reads the last round from the store (an unreadable store is the store checks' to report). */
export function checkRemote(stateDir: string, config: Config, printer: Printer, now = Date.now()): Finding[] {
  let db: ReturnType<typeof openDb> | null = null;
  try {
    if (existsSync(dbFile(stateDir))) db = openDb(stateDir);
  } catch {
    db = null;
  }
  try {
    const view = readRemoteView(db, { stateDir, config, now, printer });
    const live = db ? sessionViews(db, config.freshnessSeconds, now).filter((s) => s.live).length : 0;
    return remoteFindings(view, live, now, printer);
  } catch {
    return [];
  } finally {
    db?.close();
  }
}
