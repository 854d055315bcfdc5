import { existsSync } from "node:fs";
import { dbFile, openDb } from "../store/db.js";
import { clientsWithSessions } from "../store/sessions/rows.js";

/** The clients with sessions in this repository's store; none when there is no store (nothing is created). */
export function sessionClients(stateDir: string): string[] {
  if (!existsSync(dbFile(stateDir))) return [];
  try {
    const db = openDb(stateDir);
    try {
      return clientsWithSessions(db);
    } finally {
      db.close();
    }
  } catch {
    return []; // the store checks report an unreadable store
  }
}
