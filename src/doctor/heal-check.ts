import { PLAIN, type Printer, spanned } from "../core/printed.js";
import { listEvents } from "../store/events/list.js";
import { sessionById } from "../store/sessions/rows.js";
import { displayPath } from "../wiring/report.js";
import type { Finding } from "./finding.js";
import { readStore } from "./read-store.js";

/**
 * The wiring's heals since `since` (docs/decisions/0046): each time something other than
 * `tandem init`/`deinit` changed Tandem's wiring and it was changed back, who found it, when, and
 * whose tool call came last before the change.
 */

const SHOWN = 5;

/** One heal as doctor lists it: names already looked up. */
export interface HealLine {
  ts: number;
  /** Relative to its root when inside it. */
  file: string;
  changes: readonly string[];
  /** The session whose hook found it; null: the resident server's watch. */
  foundBy: string | null;
  lastCommandBy: string | null;
}

const iso = (ms: number): string => new Date(ms).toISOString();

function lineOf(h: HealLine): string {
  const found = h.foundBy === null ? "the resident server" : `${h.foundBy}'s hook`;
  const last = h.lastCommandBy === null ? "" : `; last tool call before it: ${h.lastCommandBy}`;
  return `${iso(h.ts)} ${h.file} (${h.changes.join("; ")}), put back by ${found}${last}`;
}

/** Pure: the heals, newest last, as one finding. */
export function healFinding(heals: readonly HealLine[], since: number, p: Printer = PLAIN): Finding {
  if (heals.length === 0)
    return {
      level: "ok",
      check: "wiring heals",
      detail: `nothing changed Tandem's wiring since ${iso(since)}`,
    };
  const shown = heals.slice(-SHOWN).reverse().map(lineOf);
  const more = heals.length > SHOWN ? `; and ${heals.length - SHOWN} earlier` : "";
  return {
    level: "info",
    check: "wiring heals",
    detail: `Tandem's wiring was changed by something other than init or deinit and put back ${heals.length} time(s) since ${iso(since)}, newest first: ${shown.join(" | ")}${more}`,
    fix: `the sessions working here were told at their next hook; if an agent or a script keeps doing it, stop it there. To remove Tandem from this repository, run ${spanned(p, "deinit")}; ${spanned(p, "doctor", "--since", { slot: "WHEN" })} (a later time) stops listing these`,
  };
}

interface Restored {
  root: string;
  file: string;
  changes: string[];
  foundBy: string | null;
  lastCommandBy: string | null;
}

export function healFindings(stateDir: string, since: number, p: Printer): Finding[] {
  return (
    readStore(stateDir, (db) => {
      const name = (id: string | null) => (id === null ? null : (sessionById(db, id)?.name ?? id));
      // `wiring.restored` is rare: read by its kind index, then by time.
      const heals = listEvents(db, { kind: "wiring.restored" })
        .filter((e) => e.ts >= since)
        .map((e) => {
          const d = e.data as Restored;
          return {
            ts: e.ts,
            file: displayPath(d.root, d.file),
            changes: d.changes,
            foundBy: name(d.foundBy),
            lastCommandBy: name(d.lastCommandBy),
          };
        });
      return [healFinding(heals, since, p)];
    }) ?? []
  );
}
