import { KEPT_REASONS } from "../../core/safety/owner-versions.js";
import type { SavedVersion } from "../../core/upkeep/policy.js";
import type { PreservedFacts, SessionFacts, SubagentFacts } from "../../core/upkeep/retention.js";
import type { Db } from "../db.js";
import { stmt } from "../db.js";
import { wiringBlobs } from "../wiring/rows.js";
import { countCompactable } from "./compact.js";

/**
 * What the retention rules (core/upkeep/retention.ts) decide from. These reads grow with history:
 * they are `tandem gc`'s and `doctor`'s, never a hook's.
 */

/** Ended sessions last seen before the cutoff, with their claims and what is left to compact. */
export function endedSessionFacts(db: Db, cutoff: number): SessionFacts[] {
  const rows = stmt(
    db,
    `SELECT s.id, s.last_seen, (SELECT count(*) FROM claims c WHERE c.session_id = s.id) AS claims
     FROM sessions s WHERE s.last_seen < ? AND s.ended_seq IS NOT NULL ORDER BY s.last_seen`,
  ).all(cutoff) as { id: string; last_seen: number; claims: number }[];
  return rows.map((r) => ({
    id: r.id,
    ended: true,
    lastSeen: r.last_seen,
    claims: r.claims,
    compactable: countCompactable(db, r.id),
  }));
}

export function subagentFacts(db: Db): SubagentFacts[] {
  const rows = stmt(
    db,
    `SELECT s.id, s.removal, e.ts AS removed_ts, (SELECT json_group_array(a.stage) FROM subagent_applies a
       WHERE a.sub_id = s.id) AS stages, x.sub_id IS NOT NULL AS expired
     FROM subagents s LEFT JOIN events e ON e.seq = s.removed_seq
     LEFT JOIN expired_subagents x ON x.sub_id = s.id`,
  ).all() as {
    id: string;
    removal: string | null;
    removed_ts: number | null;
    stages: string;
    expired: number;
  }[];
  return rows.map((r) => ({
    id: r.id,
    removal: r.removal === "removed" || r.removal === "discarded" ? r.removal : null,
    removedTs: r.removed_ts,
    applyStages: JSON.parse(r.stages) as string[],
    expired: r.expired === 1,
  }));
}

export function preservedFacts(db: Db, cutoff: number): PreservedFacts[] {
  const rows = stmt(
    db,
    `SELECT p.worktree, p.path, p.owner, p.version, p.ts, s.ended_seq IS NOT NULL AS ended, s.last_seen,
       s.id IS NOT NULL AS known
     FROM preserved p LEFT JOIN sessions s ON s.id = p.owner WHERE p.ts < ?`,
  ).all(cutoff) as {
    worktree: string;
    path: string;
    owner: string;
    version: number;
    ts: number;
    ended: number;
    last_seen: number | null;
    known: number;
  }[];
  return rows.map((r) => ({
    key: [r.worktree, r.path, r.owner, r.version],
    ts: r.ts,
    owner: r.known ? { ended: r.ended === 1, lastSeen: r.last_seen ?? 0 } : null,
  }));
}

/**
 * Every blob a record still references: captures and applies of sub-agents whose artifacts
 * were not expired (`except.subagents` are about to be), preserved versions (but
 * `except.preserved`, keyed worktree\0path\0owner\0version), and the wiring's (decision 0024).
 */
export function referencedBlobs(
  db: Db,
  except: { subagents?: ReadonlySet<string>; preserved?: ReadonlySet<string> } = {},
): Set<string> {
  const out = new Set<string>();
  const add = (b: unknown) => {
    if (typeof b === "string" && b !== "") out.add(b);
  };
  const live = (sub: string) => !except.subagents?.has(sub);
  const captures = stmt(
    db,
    `SELECT c.sub_id, c.mbox_blob, c.patch_blob, c.series FROM subagent_captures c
     WHERE c.sub_id NOT IN (SELECT sub_id FROM expired_subagents)`,
  ).all() as { sub_id: string; mbox_blob: string | null; patch_blob: string | null; series: string }[];
  for (const c of captures) {
    if (!live(c.sub_id)) continue;
    add(c.mbox_blob);
    add(c.patch_blob);
    for (const s of JSON.parse(c.series) as { mboxBlob: string | null }[]) add(s.mboxBlob);
  }
  const applies = stmt(
    db,
    `SELECT sub_id, series_blob FROM subagent_applies
     WHERE series_blob IS NOT NULL AND sub_id NOT IN (SELECT sub_id FROM expired_subagents)`,
  ).all() as { sub_id: string; series_blob: string }[];
  for (const a of applies) if (live(a.sub_id)) add(a.series_blob);
  const preserved = stmt(db, "SELECT worktree, path, owner, version, blob FROM preserved").all() as {
    worktree: string;
    path: string;
    owner: string;
    version: number;
    blob: string;
  }[];
  for (const p of preserved) {
    if (!except.preserved?.has(preservedKey([p.worktree, p.path, p.owner, p.version]))) add(p.blob);
  }
  for (const b of wiringBlobs(db)) add(b);
  return out;
}

export const preservedKey = (k: PreservedFacts["key"]): string => k.join("\0");

const KEPT_IN = `(${KEPT_REASONS.map((r) => `'${r}'`).join(", ")})`;

/**
 * Every saved version with its blob's size, for the retention policy (core/upkeep/policy.ts):
 * pinned when it is its file's newest kept version (what the watch compares with) or the
 * version a clobber not yet recovered replaced (what `tandem recover` gives back).
 */
export function savedVersions(db: Db): SavedVersion[] {
  const rows = stmt(
    db,
    `SELECT p.worktree, p.path, p.owner, p.version, p.blob, p.bytes, p.ts,
       (p.version = (SELECT max(q.version) FROM preserved q WHERE q.worktree = p.worktree AND q.path = p.path
              AND q.owner = p.owner AND q.reason IN ${KEPT_IN})
        OR EXISTS (SELECT 1 FROM clobbers c WHERE c.worktree = p.worktree AND c.path = p.path
              AND c.owner = p.owner AND c.version = p.version AND c.recovered = 0)) AS pinned
     FROM preserved p`,
  ).all() as {
    worktree: string;
    path: string;
    owner: string;
    version: number;
    blob: string;
    bytes: number;
    ts: number;
    pinned: number | null;
  }[];
  return rows.map((r) => ({
    key: [r.worktree, r.path, r.owner, r.version],
    blob: r.blob,
    bytes: r.bytes,
    ts: r.ts,
    pinned: r.pinned === 1,
  }));
}
