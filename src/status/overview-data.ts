import type { LoadedConfig } from "../config/load.js";
import { describeConfigProblem, shortConfigProblem } from "../config/problems.js";
import type { LeftItem } from "../core/claims/left-work.js";
import { landingLine } from "../core/land/landing-line.js";
import { type Printer, spanned } from "../core/printed.js";
import { STORE_CONSEQUENCE } from "../core/store/notice.js";
import { readRemoteView } from "../remote/view-data.js";
import { sessionViews } from "../sessions/view.js";
import { allClaims } from "../store/claims/rows.js";
import { type Db, dbFile } from "../store/db.js";
import { hookErrorsSinceTs, startTimes } from "../store/events/reads.js";
import type { StoreError } from "../store/failure.js";
import { readFailureLog } from "../store/failure-log.js";
import { recentLandings } from "../store/land/history.js";
import { readOnlyError } from "../store/write-access.js";
import { subagentRows } from "../subagents/lifecycle/rows.js";
import { printerOf } from "../wiring/agent-shell.js";
import { buildOverview, type Overview, type OverviewProblem } from "./overview.js";

const DAY_MS = 86_400_000;

/** What went wrong with the store while the overview was read, if anything. */
export interface StoreState {
  stateDir: string;
  /** The failure met opening or reading the store; the overview then shows no sessions. */
  failed: StoreError | null;
}

const configProblems = (loaded: Pick<LoadedConfig, "problems">, root: string): OverviewProblem[] =>
  loaded.problems.map((p) => ({
    problem: `config: ${shortConfigProblem(p, root)}`,
    fix: describeConfigProblem(p, root).fix,
  }));

/** The store's notice as the overview lists it: the same words and fix as every refusal. */
function storeProblem(failed: StoreError, printer: Printer): OverviewProblem {
  const n = failed.noticeFor(printer);
  return { problem: `store: ${n.what}; ${STORE_CONSEQUENCE}`, fix: n.fix };
}

/** Hook calls the ledger could not take: `tandem doctor` groups them, `--reset` acknowledges them. */
function failedHookCalls(stateDir: string, printer: Printer): OverviewProblem | null {
  const entries = readFailureLog(stateDir);
  const last = entries[entries.length - 1];
  if (!last) return null;
  return {
    problem: `${entries.length} hook call(s) failed and were logged beside the store; last at ${last.ts} in ${last.source}: ${last.message}`,
    fix: `${spanned(printer, "doctor")} says why and what to do; then ${spanned(printer, "doctor", "--reset")} acknowledges them`,
  };
}

function storeProblems(store: StoreState, printer: Printer): OverviewProblem[] {
  const { failed, stateDir } = store;
  // A store hooks cannot write refuses their gates, though a person's read still works.
  const met = failed ?? readOnlyError(dbFile(stateDir));
  return [met && storeProblem(met, printer), failedHookCalls(stateDir, printer)].filter(
    (p): p is OverviewProblem => !!p,
  );
}

/** Reads what the overview shows from the store; the decisions are in buildOverview. */
export function readOverview(
  db: Db | null,
  loaded: Pick<LoadedConfig, "config" | "problems">,
  root: string,
  store: StoreState,
  now = Date.now(),
  left: readonly LeftItem[] = [],
): Overview {
  const printer = printerOf(root, store.stateDir, "person");
  const problems = [...storeProblems(store, printer), ...configProblems(loaded, root)];
  if (!db)
    return buildOverview({
      sessions: null,
      claims: [],
      root,
      subagents: [],
      elsewhere: null,
      problems,
      now,
      printer,
    });
  const views = sessionViews(db, loaded.config.freshnessSeconds, now);
  // Only the sessions shown: joining every session ever recorded grew with history.
  const started = startTimes(
    db,
    views.map((v) => v.id),
  );
  const errors = hookErrorsSinceTs(db, now - DAY_MS);
  if (errors > 0)
    problems.push({
      problem: `${errors} hook error(s) in the last 24 h`,
      fix: `see them with ${spanned(printer, "events", "--kind", "hook.error")}`,
    });
  return buildOverview({
    sessions: views.map((v) => ({ ...v, startedAt: started.get(v.id) ?? v.lastSeen })),
    claims: allClaims(db).map((c) => ({ session: c.session_id, worktree: c.worktree, path: c.path })),
    root,
    subagents: subagentRows(db, views),
    left,
    elsewhere: readRemoteView(db, { stateDir: store.stateDir, config: loaded.config, now, printer }),
    landings: recentLandings(db, now - DAY_MS, 5).map((r) => ({
      ...landingLine(r.kind, r.data),
      who: r.session,
      ts: r.ts,
    })),
    problems,
    now,
    printer,
  });
}
