import { CLAIM_HISTORY, CLAIMS, SHELL_SNAPSHOTS, TOUCHED } from "./claims.js";
import type { Table } from "./columns.js";
import { EVENTS } from "./events.js";
import { LINE_AUTHORS } from "./line-authors.js";
import { REMOTE_LEASES, REMOTE_PRESENCE, REMOTE_SYNC } from "./remote.js";
import { REQUESTS, SERVER } from "./resident.js";
import { CLOBBERS, PRESERVED } from "./safety.js";
import { SESSIONS } from "./sessions.js";
import { EXPIRED_SUBAGENTS, SUBAGENT_APPLIES, SUBAGENT_CAPTURES, SUBAGENTS } from "./subagents.js";
import { WIRING_FILES, WIRING_ROOTS } from "./wiring.js";

/** Every table of the store, each declared beside its row type: what the schema test checks. */
export const TABLES: readonly Table<unknown>[] = [
  EVENTS,
  SESSIONS,
  CLAIMS,
  CLAIM_HISTORY,
  TOUCHED,
  SHELL_SNAPSHOTS,
  SUBAGENTS,
  SUBAGENT_CAPTURES,
  SUBAGENT_APPLIES,
  EXPIRED_SUBAGENTS,
  PRESERVED,
  CLOBBERS,
  REQUESTS,
  SERVER,
  WIRING_ROOTS,
  WIRING_FILES,
  REMOTE_PRESENCE,
  REMOTE_LEASES,
  REMOTE_SYNC,
  LINE_AUTHORS,
];
