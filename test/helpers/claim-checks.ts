import type { StoredEvent } from "../../src/store/ledger/projections.js";

/** Replays the ledger and returns every moment two sessions held one path. */
export function doubleHolds(events: StoredEvent[]): string[] {
  const holder = new Map<string, string>();
  const problems: string[] = [];
  for (const ev of events) {
    const d = ev.data as { path: string; holder?: string };
    if (ev.kind === "claim.acquired") {
      const current = holder.get(d.path);
      if (current && current !== ev.session)
        problems.push(`seq ${ev.seq}: ${d.path} taken while held by ${current}`);
      holder.set(d.path, ev.session!);
    }
    if (ev.kind === "claim.released" && holder.get(d.path) === (d.holder ?? ev.session))
      holder.delete(d.path);
  }
  return problems;
}

/** Every tool call either acquired all its targets (or already held them) or was denied whole. */
export function partialAcquisitions(events: StoredEvent[]): string[] {
  const problems: string[] = [];
  const held = new Map<string, string>();
  events.forEach((ev, i) => {
    const d = ev.data as { path: string; targets: string[]; holder?: string };
    if (ev.kind === "claim.acquired") held.set(d.path, ev.session!);
    if (ev.kind === "claim.released" && held.get(d.path) === (d.holder ?? ev.session)) held.delete(d.path);
    if (ev.kind !== "tool.requested") return;
    const after: StoredEvent[] = [];
    // One transaction's events are consecutive: take them until another session or tool call begins.
    for (const e of events.slice(i + 1)) {
      if (e.session !== ev.session || e.kind === "tool.requested") break;
      after.push(e);
    }
    if (after.some((e) => e.kind === "claim.denied")) {
      if (after.some((e) => e.kind === "claim.acquired")) problems.push(`seq ${ev.seq}: denied yet acquired`);
      return;
    }
    const acquired = new Set(
      after.filter((e) => e.kind === "claim.acquired").map((e) => (e.data as { path: string }).path),
    );
    for (const t of d.targets) {
      if (!acquired.has(t) && held.get(t) !== ev.session) problems.push(`seq ${ev.seq}: ${t} not acquired`);
    }
  });
  return problems;
}
