import { staleHolders } from "../core/claims/gone-verdict.js";
import type { LeftItem } from "../core/claims/left-work.js";
import { plural } from "../core/plural.js";
import { type Printer, spanned } from "../core/printed.js";
import { formatAge } from "../core/sessions/liveness.js";
import { sessionViews } from "../sessions/view.js";
import { allClaims } from "../store/claims/rows.js";
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

/**
 * Stale sessions that still hold claims: harmless to peers, but their work may await finalization.
 * Claims on their left work are not counted: left work lists those files, with its own fix.
 */
export function staleSessionFindings(
  stateDir: string,
  freshnessSeconds: number,
  t: { root: string; printer: Printer; left: readonly LeftItem[] },
  now = Date.now(),
): Finding[] {
  return (
    readStore(stateDir, (db) => {
      const views = sessionViews(db, freshnessSeconds, now);
      const claims = allClaims(db).map((c) => ({
        session: c.session_id,
        worktree: c.worktree,
        path: c.path,
      }));
      return staleHolders(views, claims, t.left, t.root).map(({ session: s, claims: n }) => ({
        level: "info" as const,
        check: "sessions",
        detail: `${s.name} (${s.client}) is stale (last seen ${formatAge(now - s.lastSeen)} ago) and still holds ${plural(n, "claim")}; they no longer block anyone`,
        // Another session's claims need --force (release.ts); the root releases every one of them.
        fix: `if its work is finished, release them all: ${spanned(t.printer, "release", "--session", s.name, "--force", { path: t.root })} (${spanned(t.printer, "claims", "--all")} lists them)`,
      }));
    }) ?? []
  );
}
