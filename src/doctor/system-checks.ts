import { plural } from "../core/plural.js";
import { type Printer, spanned } from "../core/printed.js";
import { formatAge } from "../core/sessions/liveness.js";
import { sessionViews } from "../sessions/view.js";
import type { Finding } from "./finding.js";
import { readStore } from "./read-store.js";

export function nodeFinding(version = process.versions.node): Finding {
  const major = Number(version.split(".")[0]);
  return major >= 20
    ? { level: "ok", check: "node", detail: `Node ${version}` }
    : {
        level: "problem",
        check: "node",
        detail: `Node ${version} is too old`,
        fix: "install Node 20 or newer",
      };
}

/** Stale sessions that still hold claims: harmless to peers, but their work may await finalization. */
export function staleSessionFindings(
  stateDir: string,
  freshnessSeconds: number,
  t: { root: string; printer: Printer },
  now = Date.now(),
): Finding[] {
  return (
    readStore(stateDir, (db) => {
      return sessionViews(db, freshnessSeconds, now)
        .filter((s) => !s.live && !s.ended && s.claims > 0)
        .map((s) => ({
          level: "info" as const,
          check: "sessions",
          detail: `${s.name} (${s.client}) is stale (last seen ${formatAge(now - s.lastSeen)} ago) and still holds ${plural(s.claims, "claim")}; they no longer block anyone`,
          // Another session's claims need --force (release.ts); the root releases every one of them.
          fix: `if its work is finished, release them all: ${spanned(t.printer, "release", "--session", s.name, "--force", { path: t.root })} (${spanned(t.printer, "claims", "--all")} lists them)`,
        }));
    }) ?? []
  );
}
