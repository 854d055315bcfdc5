/**
 * Finding left work (decision 0029): the candidate marks from the store, each owner's liveness
 * judged now, and git asked which candidates are dirty. Decisions are in core/claims/left-work.ts.
 */
import {
  type LeftItem,
  type LeftOwner,
  leftWork,
  type OwnerMark,
  type SettledMark,
  settledMarks,
} from "../core/claims/left-work.js";
import { isLive, UI_GONE_GRACE_MS } from "../core/sessions/liveness.js";
import { dirtyPaths } from "../git/status.js";
import { livenessFacts } from "../sessions/liveness.js";
import { leftCandidateMarks } from "../store/claims/left.js";
import type { Db } from "../store/db.js";
import { sessionById } from "../store/sessions/rows.js";

export interface LeftQuery {
  /** The coordination root the keys are relative to. */
  worktree: string;
  repoTop: string | null;
  now: number;
  freshnessSeconds: number;
  /** Only these keys (a tool call's targets); null: every candidate. */
  paths?: readonly string[] | null;
  /** The repository's dirty paths (relative to the top), when the caller already has them. */
  dirty?: ReadonlySet<string> | null;
}

export interface LeftFound {
  left: LeftItem[];
  /** Gone owners' marks on files clean now: to settle (only when git answered). */
  clean: SettledMark[];
}

const NONE: LeftFound = { left: [], clean: [] };

/** The facts a listing names about one session, its liveness judged at `now`; null if unknown. */
export function leftOwnerOf(db: Db, id: string, now: number, freshnessSeconds: number): LeftOwner | null {
  const s = sessionById(db, id);
  if (!s) return null;
  return {
    id,
    name: s.name,
    client: s.client,
    task: s.task,
    live: isLive(livenessFacts(s), now, freshnessSeconds),
    ended: s.ended_seq !== null,
    at: s.last_seen,
  };
}

function ownersOf(db: Db, marks: readonly OwnerMark[], q: LeftQuery): Map<string, LeftOwner> {
  const out = new Map<string, LeftOwner>();
  for (const id of new Set(marks.map((m) => m.session))) {
    const owner = leftOwnerOf(db, id, q.now, q.freshnessSeconds);
    if (owner) out.set(id, owner);
  }
  return out;
}

/**
 * Which candidates are dirty, as keys. When git cannot answer every candidate counts as dirty
 * (left work is never hidden) and nothing is settled.
 */
function dirtyKeys(q: LeftQuery, keys: readonly string[]): { has: (k: string) => boolean; known: boolean } {
  if (!q.repoTop) return { has: () => false, known: false };
  const prefix = q.worktree === q.repoTop ? "" : `${q.worktree.slice(q.repoTop.length + 1)}/`;
  try {
    const dirty =
      q.dirty ??
      dirtyPaths(
        q.repoTop,
        [...new Set(keys)].map((k) => `${prefix}${k}`),
      );
    return { has: (k) => dirty.has(`${prefix}${k}`), known: true };
  } catch {
    return { has: () => true, known: false };
  }
}

export function findLeftWork(db: Db, q: LeftQuery): LeftFound {
  // A session seen within the shortest way to stop being live cannot be gone: its marks are skipped.
  const quietSince = q.now - Math.min(UI_GONE_GRACE_MS, q.freshnessSeconds * 1000);
  const marks = leftCandidateMarks(db, q.worktree, quietSince, q.paths ?? null);
  if (marks.length === 0) return NONE;
  const owners = ownersOf(db, marks, q);
  const gone = marks.filter((m) => owners.get(m.session)?.live === false);
  if (gone.length === 0) return NONE;
  const dirty = dirtyKeys(
    q,
    gone.map((m) => m.path),
  );
  // A lookup for a write's targets leaves held claims to the claim gate, which takes a gone
  // holder's claim over and records the takeover.
  const clean = dirty.known ? settledMarks(marks, owners, dirty.has) : [];
  return {
    left: leftWork(marks, owners, dirty.has),
    clean: q.paths ? clean.filter((m) => !m.held) : clean,
  };
}
