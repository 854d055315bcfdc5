import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Printer, spanned } from "../core/printed.js";
import { gcSuggestion, type StoreSize } from "../core/upkeep/maintenance.js";
import { listBlobs } from "../store/blobs/files.js";
import { dbFile, openDb } from "../store/db.js";
import { eventCount, oldestEventTs } from "../store/events/reads.js";
import { storeBytes } from "../store/upkeep/stamp.js";
import { sizeText } from "../subagents/lifecycle/report.js";
import type { Finding } from "./finding.js";

/** The store's size, event count, oldest event and blob bytes (these reads grow with history: doctor's). */
export function storeSize(stateDir: string): StoreSize | null {
  if (!existsSync(dbFile(stateDir))) return null;
  let db: ReturnType<typeof openDb>;
  try {
    // As the session checks do: a read-only connection would leave the WAL files behind.
    db = openDb(stateDir);
  } catch {
    return null; // the store checks report an unreadable store
  }
  try {
    const events = eventCount(db);
    const oldestTs = oldestEventTs(db);
    const blobBytes = listBlobs(join(stateDir, "blobs")).reduce((n, b) => n + b.bytes, 0);
    return { dbBytes: storeBytes(stateDir), events, oldestTs, blobBytes };
  } finally {
    db.close();
  }
}

/** One line on the store's history, with `tandem gc` suggested past the thresholds. */
export function historyFindings(stateDir: string, p: Printer, now = Date.now()): Finding[] {
  const s = storeSize(stateDir);
  if (!s) return [];
  const since = s.oldestTs === null ? "" : ` since ${new Date(s.oldestTs).toISOString().slice(0, 10)}`;
  const detail = `${sizeText(s.dbBytes)} store, ${s.events.toLocaleString("en")} events${since}, ${sizeText(s.blobBytes)} of blobs`;
  const why = gcSuggestion(s, now);
  if (!why) return [{ level: "ok", check: "history", detail }];
  return [
    {
      level: "info",
      check: "history",
      detail: `${detail}: ${why}`,
      fix: `see what a 30-day retention frees with ${spanned(p, "gc", "--dry-run")}, then run ${spanned(p, "gc")} (or set store.autoGc: true)`,
    },
  ];
}
