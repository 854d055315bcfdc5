/**
 * A person's `tandem recover PATH` without `--session` (decision 0042): the gone session whose bytes
 * are meant is found from the file's left work or its saved versions (src/core/safety/recover-owner.ts).
 */
import { leftOwnerOf } from "../../claims/left-work.js";
import type { LeftOwner } from "../../core/claims/left-work.js";
import { ambiguousMessage, chooseRecoverOwner, chosenLine } from "../../core/safety/recover-owner.js";
import { TandemError } from "../../errors.js";
import { noticeLeft } from "../../safety/left-keep.js";
import { blobsDirOf } from "../../safety/preserve.js";
import type { Db } from "../../store/db.js";
import { preservingOwners } from "../../store/safety/kept.js";
import { type SessionRow, sessionById } from "../../store/sessions/rows.js";
import type { Io, Project } from "../context.js";

/**
 * The gone owner a person's recovery of `key` restores, after saying whose it is; null when no
 * gone session has bytes of it (the caller falls back to its usual rule). Several candidates
 * refuse, listing each with the `--session` line to run.
 */
export function goneOwnerToRecover(io: Io, db: Db, project: Project, key: string): SessionRow | null {
  const now = Date.now();
  const freshness = project.loaded.config.freshnessSeconds;
  const q = {
    worktree: project.resolved.root,
    repoTop: project.resolved.repo?.top ?? null,
    now,
    freshnessSeconds: freshness,
    paths: [key],
  };
  // Saving the left bytes first makes "its newest saved version" the bytes it left, even ones
  // written outside its hooks.
  const left = noticeLeft(db, q, blobsDirOf(project.stateDir), null).find((i) => i.path === key);
  const saved = preservingOwners(db, project.resolved.root, key)
    .map((id) => leftOwnerOf(db, id, now, freshness))
    .filter((o): o is LeftOwner => o !== null);
  const choice = chooseRecoverOwner(left?.owner ?? null, saved);
  if (choice.kind === "none") return null;
  if (choice.kind === "ambiguous") throw new TandemError(ambiguousMessage(key, choice.owners, now));
  io.out(`${chosenLine(key, choice, now)}\n`);
  return sessionById(db, choice.owner.id) ?? null;
}
