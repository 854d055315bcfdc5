import type { StoredEvent } from "../../store/ledger/projections.js";
import type { SessionRow } from "../../store/sessions/rows.js";

export interface EventLine {
  seq: number;
  ts: string;
  session: string | null;
  name: string | null;
  client: string | null;
  kind: string;
  data: unknown;
}

export function eventLine(ev: StoredEvent, sessions: ReadonlyMap<string, SessionRow>): EventLine {
  const s = ev.session ? sessions.get(ev.session) : undefined;
  return {
    seq: ev.seq,
    ts: new Date(ev.ts).toISOString(),
    session: ev.session,
    name: s?.name ?? null,
    client: s?.client ?? null,
    kind: ev.kind,
    data: ev.data,
  };
}

function summary(data: unknown): string {
  const json = JSON.stringify(data);
  return json.length > 160 ? `${json.slice(0, 157)}...` : json;
}

/** One human-readable line per event: seq, time, session name, kind, data. */
export function formatEventText(line: EventLine): string {
  const who = line.name ?? "-";
  return `${String(line.seq).padStart(6)}  ${line.ts}  ${who.padEnd(18)}  ${line.kind.padEnd(16)}  ${summary(line.data)}\n`;
}
