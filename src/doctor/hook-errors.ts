import { PLAIN, type Printer, spanned } from "../core/printed.js";
import type { Db } from "../store/db.js";
import { hookErrorRows } from "../store/events/reads.js";
import type { Finding } from "./finding.js";

/** Doctor looks back one day by default: long enough to span a night, short enough that old, fixed errors fade. */
export const DEFAULT_SINCE_MS = 24 * 60 * 60 * 1000;

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since` as epoch ms: a duration back from now (`30m`, `2h`, `7d`) or a date/time (`2026-01-31T09:00`). */
export function parseSince(text: string, now: number): number | null {
  const rel = /^(\d+)([mhd])$/.exec(text.trim());
  if (rel) return now - Number(rel[1]) * UNIT_MS[rel[2]!]!;
  const abs = Date.parse(text);
  return Number.isNaN(abs) ? null : abs;
}

export interface HookErrorRow {
  ts: number;
  message: string;
}

/** One problem naming how many hook errors there were since `since`, the newest, and where to see them all. */
export function hookErrorFinding(rows: readonly HookErrorRow[], since: number, p: Printer = PLAIN): Finding {
  const when = new Date(since).toISOString();
  const newest = rows.reduce<HookErrorRow | null>((a, r) => (a && a.ts >= r.ts ? a : r), null);
  if (!newest) return { level: "ok", check: "hook errors", detail: `none since ${when}` };
  return {
    level: "problem",
    check: "hook errors",
    detail: `${rows.length} hook error(s) since ${when}; newest at ${new Date(newest.ts).toISOString()}: ${newest.message}`,
    fix: `see them all with ${spanned(p, "events", "--kind", "hook.error")}; once fixed, ${spanned(p, "doctor", "--since", { slot: "WHEN" })} (a time after the fix) stops counting them`,
  };
}

/** The hook.error events since `since`, read from the store doctor already opened. */
export function readHookErrors(db: Db, since: number): HookErrorRow[] {
  return hookErrorRows(db, since).map((r) => ({ ts: r.ts, message: messageOf(r.data) }));
}

function messageOf(data: string): string {
  try {
    const d = JSON.parse(data) as { client?: unknown; event?: unknown; message?: unknown };
    return `${String(d.client)} ${String(d.event)}: ${String(d.message)}`;
  } catch {
    return data;
  }
}
