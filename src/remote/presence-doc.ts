import { ownedDirty } from "../claims/owned-dirty.js";
import { PRESENCE_FORMAT, type PresenceDoc, type PresenceSession } from "../core/remote/presence.js";
import { gitStatus } from "../git/run.js";
import { sessionViews } from "../sessions/view.js";
import { sessionWorktrees } from "../store/claims/reads.js";
import { claimedPaths } from "../store/claims/rows.js";
import type { Db } from "../store/db.js";
import { sessionById } from "../store/sessions/rows.js";
import type { CheckoutIdentity } from "./checkout.js";

/** Where a directory sits in its repository: paths shared with other clones are repository-relative. */
interface Place {
  top: string;
  /** The directory relative to the top, with a trailing slash, or "". */
  prefix: string;
  branch: string | null;
}

function answer(dir: string, args: string[]): string | null {
  try {
    const r = gitStatus(dir, args);
    return r.status === 0 ? r.stdout.trim() : null;
  } catch {
    return null; // the directory is gone: nothing to say about it
  }
}

function placeOf(dir: string): Place | null {
  const out = answer(dir, ["rev-parse", "--show-toplevel", "--show-prefix"]);
  if (out === null) return null;
  const [top = "", prefix = ""] = out.split("\n");
  return { top, prefix, branch: answer(dir, ["symbolic-ref", "-q", "--short", "HEAD"]) || null };
}

/** One live session as other checkouts see it: claims and owned dirty paths, repository-relative. */
function sessionEntry(
  db: Db,
  s: { id: string; name: string; client: string; task: string | null; lastSeen: number },
  places: (dir: string) => Place | null,
): PresenceSession {
  const held = claimedPaths(db, s.id);
  const worktrees = sessionWorktrees(db, s.id);
  const cwd = sessionById(db, s.id)?.cwd ?? null;
  const claims: string[] = [];
  const dirty: string[] = [];
  for (const worktree of worktrees) {
    const place = places(worktree);
    if (!place) continue;
    const mine = held.filter((c) => c.worktree === worktree).map((c) => c.path);
    for (const p of mine) claims.push(`${place.prefix}${p}`);
    for (const p of ownedDirty(db, s.id, worktree, place.top, mine)) dirty.push(`${place.prefix}${p}`);
  }
  const home = (cwd ? places(cwd) : null) ?? (worktrees[0] ? places(worktrees[0]) : null);
  return {
    name: s.name,
    client: s.client,
    task: s.task,
    branch: home?.branch ?? null,
    lastSeen: s.lastSeen,
    claims: claims.sort(),
    dirty: dirty.sort(),
  };
}

/**
 * This checkout's presence document, built from the store and git: its live sessions, their
 * claims and the dirty paths they own, and where the checkout at `root` stands (HEAD, branch,
 * upstream).
 */
export function buildPresence(
  db: Db,
  opts: { checkout: CheckoutIdentity; root: string; freshnessSeconds: number; now: number },
): PresenceDoc {
  const known = new Map<string, Place | null>();
  const places = (dir: string): Place | null => {
    if (!known.has(dir)) known.set(dir, placeOf(dir));
    return known.get(dir) ?? null;
  };
  const sessions = sessionViews(db, opts.freshnessSeconds, opts.now)
    .filter((s) => s.live && !s.ended)
    .map((s) => sessionEntry(db, s, places));
  const here = places(opts.root);
  return {
    format: PRESENCE_FORMAT,
    checkout: opts.checkout,
    published: opts.now,
    base: answer(opts.root, ["rev-parse", "-q", "--verify", "HEAD^{commit}"]) || null,
    branch: here?.branch ?? null,
    upstream: answer(opts.root, ["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"]) || null,
    sessions,
  };
}
