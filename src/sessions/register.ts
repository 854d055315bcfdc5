import type { WriteTx } from "../store/db.js";
import type { EventData } from "../store/events/schemas.js";
import { append } from "../store/ledger/append.js";
import { pickSessionName } from "../store/sessions/names.js";
import { type SessionRow, sessionById, sessionByNative } from "../store/sessions/rows.js";

export type SessionStart = Omit<EventData<"session.started">, "name">;

export function newSessionId(): string {
  // node:crypto is loaded only here: a new session is rare, a hook call is not.
  const { randomBytes } = process.getBuiltinModule("node:crypto");
  return `ses_${randomBytes(6).toString("hex")}`;
}

/**
 * Finds the session for (client, native id) or records its start. Must run
 * inside `write()`: the lookup, the name choice and the insert are one step.
 */
export function ensureSession(
  db: WriteTx,
  start: SessionStart,
  ts?: number,
): { session: SessionRow; created: boolean } {
  const existing = sessionByNative(db, start.client, start.nativeId);
  if (existing) return { session: existing, created: false };
  const id = newSessionId();
  const name = pickSessionName(db, start.nativeId);
  append(db, { kind: "session.started", session: id, data: { ...start, name }, ts });
  return { session: sessionById(db, id)!, created: true };
}
