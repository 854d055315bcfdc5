import { type Db, stmt } from "../db.js";
import type { WiringFileRow, WiringRootRow } from "../schema/wiring.js";

export type { WiringFileRow };

/** How `tandem init` wired one coordination root: what the healer re-plans from. */
export interface WiringChoice {
  root: string;
  launcher: string;
  clients: string[];
  gitHooks: boolean;
}

export function wiringChoices(db: Db): WiringChoice[] {
  const rows = stmt(
    db,
    "SELECT root, launcher, clients, git_hooks FROM wiring_roots ORDER BY root",
  ).all() as WiringRootRow[];
  return rows.map((r) => ({
    root: r.root,
    launcher: r.launcher,
    clients: JSON.parse(r.clients) as string[],
    gitHooks: r.git_hooks === 1,
  }));
}

export function wiringChoice(db: Db, root: string): WiringChoice | null {
  return wiringChoices(db).find((c) => c.root === root) ?? null;
}

/** Every recorded file: the whole per-hook read when nothing changed. */
export function wiringFiles(db: Db): WiringFileRow[] {
  return stmt(db, "SELECT path, root, stamp, blob FROM wiring_files ORDER BY path").all() as WiringFileRow[];
}

/** Replaces a root's record (inside the caller's transaction). */
export function putWiring(db: Db, choice: WiringChoice, files: readonly WiringFileRow[]): void {
  dropWiring(db, choice.root);
  stmt(db, "INSERT INTO wiring_roots (root, launcher, clients, git_hooks) VALUES (?, ?, ?, ?)").run(
    choice.root,
    choice.launcher,
    JSON.stringify(choice.clients),
    choice.gitHooks ? 1 : 0,
  );
  for (const f of files) putWiringFile(db, f);
}

export function putWiringFile(db: Db, f: WiringFileRow): void {
  stmt(db, "INSERT OR REPLACE INTO wiring_files (path, root, stamp, blob) VALUES (?, ?, ?, ?)").run(
    f.path,
    f.root,
    f.stamp,
    f.blob,
  );
}

/** Forgets a root's wiring: nothing heals it any more (`tandem deinit`). */
export function dropWiring(db: Db, root: string): void {
  stmt(db, "DELETE FROM wiring_files WHERE root = ?").run(root);
  stmt(db, "DELETE FROM wiring_roots WHERE root = ?").run(root);
}

/**
 * The session of the last tool call asked for at or before `ts`: for an opaque write, the best
 * guess at who made it. Walks back from the newest event by the kind index; a heal is rare.
 */
export function lastToolSessionBefore(db: Db, ts: number): string | null {
  const row = stmt(
    db,
    `SELECT session_id FROM events WHERE kind = 'tool.requested' AND ts <= ? AND session_id IS NOT NULL
     ORDER BY seq DESC LIMIT 1`,
  ).get(ts) as { session_id: string } | undefined;
  return row?.session_id ?? null;
}

/**
 * The session that had a tool call open at `ts` (asked for within `windowMs` before it, and by
 * then neither completed, refused nor ended), if any: a change made then is an agent's
 * (docs/decisions/0070). The window bounds a call whose end never arrived (a person declined it
 * after the hook allowed it, a client killed mid-call). Looks only at the sessions of the newest
 * requests before `ts`, by the kind and session indexes; a heal is rare.
 */
export function openCallAt(db: Db, ts: number, windowMs: number): string | null {
  const row = stmt(
    db,
    `SELECT s.session_id FROM (
       SELECT DISTINCT session_id FROM (
         SELECT session_id FROM events WHERE kind = 'tool.requested' AND ts <= ? AND ts >= ?
           AND session_id IS NOT NULL
         ORDER BY seq DESC LIMIT 64)) s
     WHERE (SELECT kind FROM events f WHERE f.session_id = s.session_id
              AND f.kind IN ('tool.requested', 'tool.completed', 'claim.denied', 'session.ended')
              AND f.ts <= ?
            ORDER BY f.seq DESC LIMIT 1) = 'tool.requested'
     LIMIT 1`,
  ).get(ts, ts - windowMs, ts) as { session_id: string } | undefined;
  return row?.session_id ?? null;
}

/** Blobs the wiring still needs (gc keeps them): last accepted contents and displaced bytes. */
export function wiringBlobs(db: Db): string[] {
  const files = stmt(db, "SELECT blob FROM wiring_files WHERE blob IS NOT NULL").all() as { blob: string }[];
  const displaced = stmt(
    db,
    `SELECT json_extract(data, '$.displaced') AS blob FROM events
     WHERE kind = 'wiring.restored' AND json_extract(data, '$.displaced') IS NOT NULL`,
  ).all() as { blob: string }[];
  return [...files, ...displaced].map((r) => r.blob);
}

/** Forgets one file: it is no longer part of any wiring (an older Tandem's shared file, say). */
export function dropWiringFile(db: Db, path: string): void {
  stmt(db, "DELETE FROM wiring_files WHERE path = ?").run(path);
}

/**
 * The content hash each of the last `n` restorations of `path` found, newest first (null where the
 * file was gone or no hash was recorded): the healer's check that it is not fighting another writer.
 */
export function lastFound(db: Db, path: string, n: number): (string | null)[] {
  const rows = stmt(
    db,
    `SELECT json_extract(data, '$.found') AS blob FROM events
     WHERE kind = 'wiring.restored' AND json_extract(data, '$.file') = ? ORDER BY seq DESC LIMIT ?`,
  ).all(path, Math.floor(n)) as { blob: string | null }[];
  return rows.map((r) => r.blob);
}
