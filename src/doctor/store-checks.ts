import { existsSync } from "node:fs";
import { errorMessage } from "../errors.js";
import { checkHeader, type Db, dbFile, guardCorruption, openDb } from "../store/db.js";
import { checkEventData } from "../store/event-schemas.js";
import { SCHEMA_VERSION } from "../store/migrations.js";
import { dumpProjections, rebuildProjections } from "../store/rebuild.js";

export interface Finding {
  level: "ok" | "info" | "problem";
  check: string;
  detail: string;
  /** What to do about a problem. */
  fix?: string;
}

export interface StoreReport {
  file: string;
  findings: Finding[];
  schemaVersion: number | null;
  counts: { events: number; sessions: number; claims: number; byKind: Record<string, number> } | null;
  rebuild: { replayed: number; identical: boolean } | null;
}

function integrity(db: Db): Finding {
  const rows = db.pragma("integrity_check") as { integrity_check: string }[];
  const msgs = rows.map((r) => r.integrity_check);
  return msgs.length === 1 && msgs[0] === "ok"
    ? { level: "ok", check: "integrity", detail: "SQLite integrity check passed" }
    : {
        level: "problem",
        check: "integrity",
        detail: msgs.slice(0, 5).join("; "),
        fix: "move state.db aside (Tandem starts a new ledger) and report the file",
      };
}

function invalidEvents(db: Db): Finding {
  let bad = 0;
  let first = "";
  const rows = db.prepare("SELECT seq, kind, data FROM events ORDER BY seq").iterate() as Iterable<{
    seq: number;
    kind: string;
    data: string;
  }>;
  for (const row of rows) {
    let problem: string | null;
    try {
      problem = checkEventData(row.kind, JSON.parse(row.data));
    } catch (err) {
      problem = errorMessage(err);
    }
    if (problem) {
      bad++;
      first ||= `seq ${row.seq}: ${problem}`;
    }
  }
  return bad === 0
    ? { level: "ok", check: "events", detail: "every event matches its schema" }
    : {
        level: "problem",
        check: "events",
        detail: `${bad} invalid event(s), first ${first}`,
        fix: "report this ledger; it was not written by this tandem",
      };
}

function counts(db: Db): NonNullable<StoreReport["counts"]> {
  const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  const byKind: Record<string, number> = {};
  for (const r of db.prepare("SELECT kind, count(*) AS n FROM events GROUP BY kind ORDER BY kind").all() as {
    kind: string;
    n: number;
  }[]) {
    byKind[r.kind] = r.n;
  }
  return {
    events: n("SELECT count(*) AS n FROM events"),
    sessions: n("SELECT count(*) AS n FROM sessions"),
    claims: n("SELECT count(*) AS n FROM claims"),
    byKind,
  };
}

function rebuild(db: Db): NonNullable<StoreReport["rebuild"]> {
  const before = JSON.stringify(dumpProjections(db));
  const replayed = rebuildProjections(db);
  return { replayed, identical: JSON.stringify(dumpProjections(db)) === before };
}

/** Diagnoses the store without creating one; `--rebuild` replays the ledger into fresh projections. */
export function checkStore(stateDir: string, opts: { rebuild: boolean }): StoreReport {
  const file = dbFile(stateDir);
  const report: StoreReport = { file, findings: [], schemaVersion: null, counts: null, rebuild: null };
  if (!existsSync(file)) {
    report.findings.push({
      level: "info",
      check: "store",
      detail: `no ledger yet at ${file}; it is created by the first hook`,
    });
    return report;
  }
  const header = checkHeader(file);
  if (header) {
    report.findings.push({
      level: "problem",
      check: "store",
      detail: `${file}: ${header}`,
      fix: `move ${file} aside; Tandem then starts a new ledger`,
    });
    return report;
  }
  try {
    guardCorruption(file, () => {
      const db = openDb(stateDir);
      try {
        report.schemaVersion = db.pragma("user_version", { simple: true }) as number;
        report.findings.push({
          level: "ok",
          check: "schema",
          detail: `schema version ${report.schemaVersion} (current ${SCHEMA_VERSION})`,
        });
        report.findings.push(integrity(db), invalidEvents(db));
        report.counts = counts(db);
        if (opts.rebuild) report.rebuild = rebuild(db);
      } finally {
        db.close();
      }
    });
  } catch (err) {
    report.findings.push({
      level: "problem",
      check: "store",
      detail: errorMessage(err),
      fix: `move ${file} aside; Tandem then starts a new ledger`,
    });
  }
  return report;
}
