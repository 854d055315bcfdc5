/**
 * Stash entries a session's shell command created (`git stash`, `push`, `save`, `-u`, `store`):
 * work that exists only in a stash is not finalized, so the end-turn check must know whose it is.
 * Only a command line with a `git stash` call pays for this, and it reads the stash reflog file,
 * never a git process (git/stash.ts).
 */
import { resolve } from "node:path";
import { enclosingWorkTrees } from "../config/git-discovery.js";
import type { GitCall } from "../core/git/call.js";
import { parseGlobals } from "../core/git/globals.js";
import { type StashEntry, stashEntries } from "../git/stash.js";
import type { WriteTx } from "../store/db.js";
import { append } from "../store/ledger/append.js";
import type { HookCtx } from "./context.js";

/** Per repository top: the stash commits that existed before the command ran. */
export type StashSnapshot = Record<string, string[]>;

/** A stash entry the command created, attributed to the session that ran it. */
export interface CreatedStash {
  repo: string;
  sha: string;
  message: string;
}

/** The directory a `git stash` call runs in, or null for a call that is not one. */
function stashCallDir(call: GitCall, base: string): string | null {
  const parsed = parseGlobals(call.args);
  if (parsed.ok !== true || parsed.rest[0] !== "stash") return null;
  // A directory that cannot be told (`cd "$X"; git stash`) falls back to the command's own.
  return call.cwd === null ? base : resolve(base, call.cwd, ...parsed.globals.chdir);
}

/** The repositories the command's `git stash` calls run in; empty when it has none. */
export function stashRepos(ctx: HookCtx, calls: readonly GitCall[]): string[] {
  const base = ctx.input.cwd ?? ctx.root.root;
  const tops = new Set<string>();
  for (const call of calls) {
    const dir = stashCallDir(call, base);
    const top = dir === null ? undefined : enclosingWorkTrees(dir)[0]?.top;
    if (top !== undefined) tops.add(top);
  }
  return [...tops];
}

/** Each repository's stash entries now; a repository that cannot be read is left out. */
export function readStashes(tops: readonly string[]): Record<string, StashEntry[]> {
  const out: Record<string, StashEntry[]> = {};
  for (const top of tops) {
    try {
      out[top] = stashEntries(top);
    } catch {
      // Not knowing the stash list must not break the command; nothing is attributed then.
    }
  }
  return out;
}

export function stashSnapshot(lists: Record<string, StashEntry[]>): StashSnapshot {
  return Object.fromEntries(Object.entries(lists).map(([top, entries]) => [top, entries.map((e) => e.sha)]));
}

/** Pure: the entries present after the command and absent before it, per repository known before. */
export function createdStashes(before: StashSnapshot, after: Record<string, StashEntry[]>): CreatedStash[] {
  const out: CreatedStash[] = [];
  for (const [repo, shas] of Object.entries(before)) {
    const had = new Set(shas);
    for (const e of after[repo] ?? [])
      if (!had.has(e.sha)) out.push({ repo, sha: e.sha, message: e.message });
  }
  return out;
}

/** Inside the write lock: one `stash.created` event per new entry. */
export function recordCreatedStashes(
  db: WriteTx,
  session: string,
  ts: number,
  created: CreatedStash[],
): void {
  for (const data of created) append(db, { kind: "stash.created", session, ts, data });
}
