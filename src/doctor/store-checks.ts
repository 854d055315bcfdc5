import { statSync } from "node:fs";
import { type Printer, spanned } from "../core/printed.js";
import { RESETTABLE, STORE_CONSEQUENCE } from "../core/store/notice.js";
import { errorMessage } from "../errors.js";
import { type Db, dbFile, openDb } from "../store/db.js";
import { rawEvents, type StoreCounts, storeCounts } from "../store/events/reads.js";
import { checkEventData } from "../store/events/schemas.js";
import { describeProblem, StoreError, type StoreProblem, storeErrorOf, storeFix } from "../store/failure.js";
import { type FailureEntry, readFailureLog } from "../store/failure-log.js";
import { markCorrupt } from "../store/identity.js";
import { SCHEMA_VERSION } from "../store/migrations.js";
import { integrityCheck, probeWrite, schemaVersionOf } from "../store/probes.js";
import { diagnoseTrust, openReadOnly, type TrustVerdict } from "../store/repair/diagnose.js";
import { dumpProjections, rebuildProjections } from "../store/repair/rebuild.js";
import { assertWritable } from "../store/write-access.js";
import type { Finding } from "./finding.js";
import { type HookErrorRow, readHookErrors } from "./hook-errors.js";

export type { Finding } from "./finding.js";

export interface StoreReport {
  file: string;
  findings: Finding[];
  schemaVersion: number | null;
  counts: StoreCounts | null;
  rebuild: { replayed: number; identical: boolean } | null;
  /** hook.error events since `opts.hookErrorsSince`; null when the store could not be read. */
  hookErrors: HookErrorRow[] | null;
}

/** A store failure as a finding: the words and fix every surface gives (core/store/notice.ts). */
function failureFinding(check: string, e: StoreError, p: Printer): Finding {
  const n = e.noticeFor(p);
  return { level: "problem", check, detail: `${n.what}; ${STORE_CONSEQUENCE}`, fix: n.fix };
}

function integrityMessages(db: Db, file: string): string[] {
  try {
    return integrityCheck(db);
  } catch (err) {
    // Damage bad enough stops the check itself: that is its answer.
    const e = storeErrorOf(err, file);
    if (e?.problem !== "corrupt") throw err;
    return [e.detail];
  }
}

function integrity(db: Db, stateDir: string, file: string, p: Printer): Finding {
  const msgs = integrityMessages(db, file);
  if (msgs.length === 1 && msgs[0] === "ok")
    return { level: "ok", check: "integrity", detail: "SQLite integrity check passed" };
  const detail = msgs.slice(0, 5).join("; ");
  // Found now, so every gate refuses from here on, not only those whose queries read the damage.
  markCorrupt(stateDir, `integrity check: ${detail}`);
  return { level: "problem", check: "integrity", detail, fix: storeFix("corrupt", file, p) };
}

function invalidEvents(db: Db): Finding {
  let bad = 0;
  let first = "";
  for (const row of rawEvents(db)) {
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

function rebuild(db: Db): NonNullable<StoreReport["rebuild"]> {
  const before = JSON.stringify(dumpProjections(db));
  const replayed = rebuildProjections(db);
  return { replayed, identical: JSON.stringify(dumpProjections(db)) === before };
}

function untrustedFinding(file: string, v: Extract<TrustVerdict, { trusted: false }>, p: Printer): Finding {
  return failureFinding("store", new StoreError(v.problem, file, v.detail), p);
}

/** Whether hooks can write: a write transaction that is rolled back, waiting at most a second for a lock. */
function writable(stateDir: string, file: string, p: Printer): { finding: Finding; db: Db | null } {
  let db: Db | null = null;
  try {
    assertWritable(file);
    db = openDb(stateDir, { lockSeconds: 1 });
    probeWrite(db);
    return { finding: { level: "ok", check: "writable", detail: "hooks can write the store" }, db };
  } catch (err) {
    db?.close();
    const e = storeErrorOf(err, file);
    if (!e) throw err;
    return { finding: failureFinding("writable", e, p), db: null };
  }
}

/**
 * The resident server's own upkeep (pruning old requests) that met the store's lock: skipped and
 * tried again a tick later, with no hook call behind it, so a note rather than a problem.
 */
function skippedUpkeep(e: FailureEntry): boolean {
  return e.source === "tandem serve" && e.problem === "locked" && e.failed === "open";
}

function upkeepNote(entries: readonly FailureEntry[]): Finding {
  const last = entries[entries.length - 1]!;
  return {
    level: "info",
    check: "server upkeep",
    detail: `the resident server skipped ${entries.length} upkeep step(s) while another process held the store's lock (tried again later; no hook call was affected); last at ${last.ts}: ${last.message}`,
  };
}

/** Hook failures the ledger could not take, grouped by problem, each with its fix. */
export function recordedFailures(stateDir: string, file: string, printer: Printer): Finding[] {
  const groups = new Map<string, FailureEntry[]>();
  const upkeep: FailureEntry[] = [];
  for (const e of readFailureLog(stateDir)) {
    if (skippedUpkeep(e)) upkeep.push(e);
    else groups.set(e.problem, [...(groups.get(e.problem) ?? []), e]);
  }
  return [...(upkeep.length > 0 ? [upkeepNote(upkeep)] : []), ...failureGroups(groups, file, printer)];
}

function failureGroups(groups: Map<string, FailureEntry[]>, file: string, printer: Printer): Finding[] {
  const ack = `${spanned(printer, "doctor", "--reset")} acknowledges these records (the log is kept)`;
  return [...groups].map(([problem, entries]) => {
    const last = entries[entries.length - 1]!;
    const closed = entries.filter((e) => e.failed === "closed").length;
    const p = problem as StoreProblem;
    const what = problem === "error" ? "failed" : `failed because the store ${describeProblem(p)}`;
    const fix =
      problem === "error" || RESETTABLE.includes(p) ? ack : `${storeFix(p, file, printer)}; then ${ack}`;
    return {
      level: "problem" as const,
      check: "hook failures",
      detail: `${entries.length} hook call(s) ${what} (${closed} refused); last at ${last.ts} in ${last.source}: ${last.message}`,
      fix,
    };
  });
}

/** Diagnoses the store without creating one; `--rebuild` replays the ledger into fresh projections. */
export function checkStore(stateDir: string, opts: StoreOptions): StoreReport {
  const file = dbFile(stateDir);
  const report: StoreReport = {
    file,
    findings: [],
    schemaVersion: null,
    counts: null,
    rebuild: null,
    hookErrors: null,
  };
  const exists = (statSync(file, { throwIfNoEntry: false })?.size ?? 0) > 0;
  const trust = diagnoseTrust(stateDir, exists);
  if (!trust.trusted) {
    report.findings.push(untrustedFinding(file, trust, opts.printer));
  } else if (!exists) {
    report.findings.push({
      level: "info",
      check: "store",
      detail: `no ledger yet at ${file}; it is created by the first hook`,
    });
    report.hookErrors = [];
  } else {
    inspect(stateDir, file, report, opts);
  }
  report.findings.push(...recordedFailures(stateDir, file, opts.printer));
  return report;
}

interface StoreOptions {
  rebuild: boolean;
  /** Epoch ms from which hook.error events are read (0 = all). */
  hookErrorsSince?: number;
  /** How the fixes spell Tandem's commands for doctor's reader. */
  printer: Printer;
}

function inspect(stateDir: string, file: string, report: StoreReport, opts: StoreOptions): void {
  try {
    const db = openReadOnly(stateDir);
    try {
      report.schemaVersion = schemaVersionOf(db);
      report.findings.push({
        level: "ok",
        check: "schema",
        detail: `schema version ${report.schemaVersion} (current ${SCHEMA_VERSION})`,
      });
      const checked = integrity(db, stateDir, file, opts.printer);
      report.findings.push(checked);
      // The rest would read the damage too; the integrity finding says what to do.
      if (checked.level === "problem") return;
      report.findings.push(invalidEvents(db));
      report.counts = storeCounts(db);
      report.hookErrors = readHookErrors(db, opts.hookErrorsSince ?? 0);
    } finally {
      db.close();
    }
  } catch (err) {
    const e = storeErrorOf(err, file);
    if (e?.lasting) markCorrupt(stateDir, e.detail);
    report.findings.push(
      e
        ? failureFinding("store", e, opts.printer)
        : { level: "problem", check: "store", detail: errorMessage(err), fix: "see the message" },
    );
    return;
  }
  const probe = writable(stateDir, file, opts.printer);
  report.findings.push(probe.finding);
  if (!probe.db) return;
  try {
    if (opts.rebuild) report.rebuild = rebuild(probe.db);
  } finally {
    probe.db.close();
  }
}
