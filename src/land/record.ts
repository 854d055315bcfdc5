import type { LandResult } from "../core/land/result.js";
import type { Db } from "../store/db.js";
import { appendOne, type NewEvent } from "../store/ledger/append.js";

/** The event a finished landing leaves in the ledger (null: nothing happened worth one). */
export function outcomeEvent(r: LandResult, session: string | null): NewEvent | null {
  switch (r.outcome) {
    case "pushed":
      return {
        kind: "land.pushed",
        session,
        data: {
          branch: r.branch,
          outcome: "pushed",
          from: r.from,
          to: r.to,
          commits: r.commits,
          rebased: r.rebased,
          attempts: r.attempts,
          ...(r.checks !== undefined ? { checks: r.checks } : {}),
          ...(r.rejected ? { rejected: r.rejected.commits.map((c) => c.sha) } : {}),
          ...(r.batch ? { waiters: r.batch.waiters } : {}),
        },
      };
    case "up-to-date":
    case "fast-forwarded": {
      const [from, to] = r.outcome === "up-to-date" ? [r.head, r.head] : [r.from, r.to];
      return {
        kind: "land.pushed",
        session,
        data: {
          branch: r.branch,
          outcome: r.outcome,
          from,
          to,
          commits: 0,
          rebased: false,
          attempts: r.attempts,
        },
      };
    }
    case "refused":
      return {
        kind: "land.refused",
        session,
        data: {
          branch: r.branch,
          reason: "held",
          paths: r.blocked.map((b) => ({ path: b.path, holders: b.holders })),
        },
      };
    case "conflicted":
      return {
        kind: "land.conflicted",
        session,
        data: { branch: r.branch, commit: r.commit.sha, subject: r.commit.subject, paths: r.paths },
      };
    case "check-failed":
      return {
        kind: "land.refused",
        session,
        data: {
          branch: r.branch,
          reason: "check",
          paths: [],
          message: `${r.rejected.check.command} ${r.rejected.check.timedOut ? "timed out" : `exited ${r.rejected.check.exitCode ?? "abnormally"}`}`,
          commits: r.rejected.commits.map((c) => c.sha),
        },
      };
    case "failed":
      return {
        kind: "land.refused",
        session,
        data: { branch: r.branch, reason: "failed", paths: [], message: r.message },
      };
  }
}

/** Observational: a store that cannot take the event never fails the landing; the caller is told. */
export function record(db: Db | null, ev: NewEvent | null): string | null {
  if (!db || !ev) return null;
  try {
    appendOne(db, ev);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}
