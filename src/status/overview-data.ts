import type { LoadedConfig } from "../config/load.js";
import { shortConfigProblem } from "../config/problems.js";
import { sessionViews } from "../sessions/view.js";
import type { Db } from "../store/db.js";
import { subagentRows } from "../subagents/lifecycle/rows.js";
import { buildOverview, type Overview } from "./overview.js";

const DAY_MS = 86_400_000;

/** Reads what the overview shows from the store; the decisions are in buildOverview. */
export function readOverview(
  db: Db | null,
  loaded: Pick<LoadedConfig, "config" | "problems">,
  root: string,
  now = Date.now(),
): Overview {
  const problems = loaded.problems.map((p) => `config: ${shortConfigProblem(p, root)}`);
  if (!db) return buildOverview({ sessions: [], subagents: [], problems, now });
  const views = sessionViews(db, loaded.config.freshnessSeconds, now);
  // Only the sessions shown: joining every session ever recorded grew with history.
  const started = new Map(
    (
      db
        .prepare(
          `SELECT s.id AS id, e.ts AS ts FROM json_each(?) j JOIN sessions s ON s.id = j.value
           JOIN events e ON e.seq = s.started_seq`,
        )
        .all(JSON.stringify(views.map((v) => v.id))) as { id: string; ts: number }[]
    ).map((r) => [r.id, r.ts]),
  );
  const errors = (
    db
      .prepare("SELECT count(*) AS n FROM events WHERE kind = 'hook.error' AND ts >= ?")
      .get(now - DAY_MS) as {
      n: number;
    }
  ).n;
  if (errors > 0)
    problems.push(`${errors} hook error(s) in the last 24 h; see \`tandem events --kind hook.error\``);
  return buildOverview({
    sessions: views.map((v) => ({ ...v, startedAt: started.get(v.id) ?? v.lastSeen })),
    subagents: subagentRows(db, views),
    problems,
    now,
  });
}
