/** One finished landing, as the person's overview lists it (`tandem status`). */
export interface LandingLine {
  ok: boolean;
  text: string;
}

const n = (v: unknown) => (typeof v === "number" ? v : 0);
const s = (v: unknown) => (typeof v === "string" ? v : "?");
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Pure: a land.pushed/refused/conflicted event's data in a few words, and whether it landed. */
export function landingLine(kind: string, d: Record<string, unknown>): LandingLine {
  const branch = s(d.branch);
  if (kind === "land.pushed") {
    const away = list(d.rejected).length;
    if (d.outcome !== "pushed") return { ok: true, text: `${branch}: ${s(d.outcome)}` };
    const text = `${branch}: ${n(d.commits)} commit(s) pushed${d.rebased ? " after a rebase" : ""}`;
    return away ? { ok: false, text: `${text}; ${away} turned away by land.check` } : { ok: true, text };
  }
  if (kind === "land.conflicted")
    return { ok: false, text: `${branch}: rebase conflict on ${list(d.paths).map(s).join(", ")}` };
  if (d.reason === "held")
    return {
      ok: false,
      text: `${branch}: refused, someone's work is on ${list(d.paths)
        .map((p) => s((p as Record<string, unknown>).path))
        .join(", ")}`,
    };
  if (d.reason === "check") return { ok: false, text: `${branch}: land.check failed (${s(d.message)})` };
  return { ok: false, text: `${branch}: failed: ${s(d.message)}` };
}
