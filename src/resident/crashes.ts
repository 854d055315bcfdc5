import { appendFileSync, existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { errorMessage } from "../errors.js";
import { processAlive } from "../sessions/proc.js";
import { openDb } from "../store/db.js";
import { serverRow } from "../store/server/row.js";
import { addrFile } from "./paths.js";

/**
 * The resident server's crashes (docs/server.md §7): one JSON object per line beside the store,
 * written by the dying server itself (an uncaught exception or rejection) or by the first hook that
 * finds a server that died without cleaning up (killed, out of memory). `tandem doctor` reports them.
 */
export interface CrashRecord {
  ts: string;
  pid: number;
  /** Who wrote it: the server on its way out, or a hook that found it dead. */
  found: "by itself" | "by a hook";
  message: string;
}

export const crashFile = (stateDir: string): string => join(stateDir, "serve.crashes");

/** Appends one record; never throws (a crash handler or a hook's fallback calls it). */
export function recordCrash(stateDir: string, crash: CrashRecord): boolean {
  try {
    appendFileSync(crashFile(stateDir), `${JSON.stringify(crash)}\n`, { mode: 0o600 });
    return true;
  } catch {
    return false;
  }
}

/** Every record since `since` (epoch ms), oldest first; unreadable lines are skipped. */
export function readCrashes(stateDir: string, since: number): CrashRecord[] {
  let text: string;
  try {
    text = readFileSync(crashFile(stateDir), "utf8");
  } catch {
    return [];
  }
  const out: CrashRecord[] = [];
  for (const line of text.split("\n")) {
    try {
      const c = JSON.parse(line) as CrashRecord;
      if (typeof c.ts === "string" && Date.parse(c.ts) >= since) out.push(c);
    } catch {
      // A torn last line of a process that died while writing it.
    }
  }
  return out;
}

/**
 * Called by the Node path when the thin client found no server that answers: a published address
 * whose registered server is dead means it died without cleaning up (a clean exit withdraws the
 * address before its registration). The address is taken away by rename first, so of several hooks
 * finding it, one records the crash.
 */
export function noteDeadServer(stateDir: string, now = new Date()): CrashRecord | null {
  const addr = addrFile(stateDir);
  if (!existsSync(addr)) return null; // Never started, or exited cleanly: nothing to ask the store.
  let row: ReturnType<typeof serverRow>;
  try {
    const db = openDb(stateDir, { readonly: true, lockSeconds: 0 });
    try {
      row = serverRow(db);
    } finally {
      db.close();
    }
  } catch {
    return null; // No store, or one the hook already reported on.
  }
  if (!row || processAlive(row.pid, row.pid_start)) return null;
  const taken = `${addr}.dead-${process.pid}`;
  try {
    renameSync(addr, taken);
  } catch {
    return null; // No address (a clean exit) or another hook took it.
  }
  rmSync(taken, { force: true });
  const crash: CrashRecord = {
    ts: now.toISOString(),
    pid: row.pid,
    found: "by a hook",
    message: `the server (pid ${row.pid}, build ${row.build}) died without cleaning up; it may have been killed`,
  };
  return recordCrash(stateDir, crash) ? crash : null;
}

/** The server's last words: what it crashed of, recorded before it exits. */
export function crashMessage(how: string, err: unknown): string {
  const stack = err instanceof Error && err.stack ? err.stack.split("\n").slice(0, 4).join(" | ") : "";
  return `${how}: ${errorMessage(err)}${stack ? ` (${stack})` : ""}`;
}
