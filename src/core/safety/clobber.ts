/**
 * The safety net's decisions (docs/safety-net.md), pure over plain data: which of
 * a peer's uncommitted files need a fresh copy before a command, which of them the
 * command then changed or removed, and what each side is told.
 */

import { type Printer, spanned } from "../printed.js";

/** One live peer's uncommitted file as a command is about to run. */
export interface PeerFile {
  /** Path relative to the coordination root. */
  key: string;
  /** size:mtime:mode:ctime:inode (src/git/status.ts fileStamp). */
  stamp: string;
  /** The owning session's id. */
  owner: string;
}

/** A file whose stamp equals its newest preserved copy costs a stat, not a read. */
export function needsCopy(
  files: readonly PeerFile[],
  newestStamp: (f: PeerFile) => string | undefined,
): PeerFile[] {
  return files.filter((f) => f.stamp !== "missing" && newestStamp(f) !== f.stamp);
}

export interface Clobber {
  key: string;
  owner: string;
  change: "changed" | "removed";
  /** The preserved version holding the owner's bytes from before; null when none was taken. */
  version: number | null;
}

export interface ClobberFacts {
  /** Paths the command changed (the dirty-set delta), relative to the root. */
  changed: readonly string[];
  /** Stamps of the dirty paths before the command (relative to the root). */
  before: Readonly<Record<string, string>>;
  /** The live peer owning each path, by id. */
  ownerOf: (key: string) => string | undefined;
  existsNow: (key: string) => boolean;
  /** The preserved version of `key` for `owner` taken at `stamp`, if any. */
  versionAt: (key: string, owner: string, stamp: string) => number | null;
}

/**
 * A peer's file counts as clobbered when it was dirty before the command (its
 * bytes existed nowhere else) and the command changed or removed it. A clean file
 * a peer holds is still in HEAD: the post-tool warning covers it.
 */
export function findClobbers(f: ClobberFacts): Clobber[] {
  const out: Clobber[] = [];
  for (const key of f.changed) {
    const owner = f.ownerOf(key);
    const stamp = f.before[key];
    if (!owner || stamp === undefined || stamp === "missing") continue;
    out.push({
      key,
      owner,
      change: f.existsNow(key) ? "changed" : "removed",
      version: f.versionAt(key, owner, stamp),
    });
  }
  return out;
}

export interface NamedClobber extends Clobber {
  ownerName: string;
}

/** What the agent whose command did it is told, in its tool result. */
export function actorWarning(clobbers: readonly NamedClobber[], p: Printer): string {
  const list = clobbers.map((c) => `${c.key} (${c.ownerName}'s uncommitted edits, ${c.change})`).join(", ");
  const saved = clobbers.every((c) => c.version !== null)
    ? "Tandem preserved their bytes before the command ran"
    : "Tandem could not preserve all of their bytes";
  return `Tandem warning: that command overwrote other live agents' uncommitted work: ${list}. ${saved}. Do not commit these files as your own and do not repeat the command; tell the user, and leave the recovery to their owner (${spanned(p, "recover", { slot: "PATH" })}).`;
}

export interface OwnerNotice {
  key: string;
  change: "changed" | "removed";
  actorName: string | null;
  version: number | null;
  /** "watch": found at a later hook, not by the command that did it (decision 0020). */
  via?: string;
}

function writer(n: OwnerNotice): string {
  if (n.actorName) return `${n.actorName}'s command`;
  return n.via === "watch"
    ? "a writer Tandem did not see run (a background job, a link, a person or a program outside any session)"
    : "a command of another session";
}

/** What the owner is told on its next prompt or tool call. */
export function ownerNotice(notices: readonly OwnerNotice[], p: Printer): string {
  const lines = notices.map((n) => {
    const who = writer(n);
    const back =
      n.version === null
        ? "no copy was preserved; check `git stash list` and your editor's history"
        : `put your bytes back with ${spanned(p, "recover", { path: n.key })}`;
    return `- ${n.key}: ${n.change} by ${who}; ${back}`;
  });
  return `Tandem: something other than you overwrote your uncommitted work:\n${lines.join("\n")}\n(${spanned(p, "recover", { slot: "PATH" }, "--list")} shows every preserved version.) Check the file before you continue editing it.`;
}
