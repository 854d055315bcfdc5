/**
 * Every version an owner leaves is kept, and watched afterwards (docs/safety-net.md, decision
 * 0020). Pure decisions over one owned file: its stamp now, the version last kept for its owner,
 * and whether the owner's own tool call can have left it so.
 */

/** Why a version joins the owner's line of kept bytes: what the file should still hold. */
export const KEPT_REASONS = ["owner", "clobbered", "recovered"] as const;
export type KeptReason = (typeof KEPT_REASONS)[number];

/** The newest kept version of a file for its owner. */
export interface Kept {
  version: number;
  /** size:mtime:mode:ctime:inode (src/git/status.ts fileStamp). */
  stamp: string;
  blob: string;
  seq: number;
}

export interface OwnedFile {
  key: string;
  owner: string;
  /** The stamp now; "missing" when the file is gone. */
  stamp: string;
  kept: Kept | null;
  /** The owner's own tool call may have left the file as it is (its post-tool, or a call still open). */
  own: boolean;
}

/**
 * What a stamp alone decides. An equal stamp costs nothing more; the owner's own change is kept
 * as its newest version; any other change of a kept file needs its bytes compared.
 */
export type StampStep = "same" | "keep" | "compare" | "removed";

export function stampStep(f: OwnedFile): StampStep {
  if (f.kept && f.kept.stamp === f.stamp) return "same";
  if (f.own) return f.stamp === "missing" ? "same" : "keep";
  if (!f.kept) return "same";
  return f.stamp === "missing" ? "removed" : "compare";
}

/** Facts gathered for a file whose stamp changed under someone other than its owner's open call. */
export interface ChangeFacts {
  /** sha256 of the bytes now (null when removed). */
  blob: string | null;
  kept: Kept;
  /** A clobber of this file for this owner was recorded after the kept version (the command's delta). */
  recordedSince: boolean;
  /** Only for a removal: the owner's own command removed it after the kept version. */
  removedByOwner: boolean;
}

/**
 * - `restamp`: same bytes, new stamp (a `touch`): keep it as the same version's bytes, no clobber.
 * - `follow`: a clobber is already recorded; keep the new bytes so the next check compares to them.
 * - `clobber`: nobody recorded it: keep the new bytes and record `work.clobbered` for the owner.
 * - `ignore`: the owner removed its own file.
 */
export type ChangeStep = "restamp" | "follow" | "clobber" | "ignore";

export function changeStep(c: ChangeFacts): ChangeStep {
  if (c.blob === null) return c.recordedSince || c.removedByOwner ? "ignore" : "clobber";
  if (c.blob === c.kept.blob) return "restamp";
  return c.recordedSince ? "follow" : "clobber";
}

/** A tool call asked for (with the targets it named) or completed, oldest first. */
export interface CallEvent {
  kind: "requested" | "completed";
  id: string | null;
  ts: number;
  targets: readonly string[];
}

/**
 * A session's tool calls asked for and not completed within `windowMs`: a file one of them names
 * may be changing under that call (between its pre- and post-tool-use, or a Codex heredoc patch
 * that never fires a post-tool-use). Calls without an id pair with each other.
 */
export function openCalls(events: readonly CallEvent[], now: number, windowMs: number): CallEvent[] {
  const open: CallEvent[] = [];
  for (const e of events) {
    if (e.kind === "requested") open.push(e);
    else {
      let at = open.length - 1;
      while (at >= 0 && open[at]!.id !== e.id) at--;
      if (at >= 0) open.splice(at, 1);
    }
  }
  return open.filter((o) => o.ts >= now - windowMs);
}

/** Which of a session's files a call still open may be changing: all (a whole-tree command), or these. */
export type InFlight = "all" | ReadonlySet<string>;

export function inFlight(openTargets: readonly string[], treeCommandOpen: boolean): InFlight {
  return treeCommandOpen ? "all" : new Set(openTargets);
}

export function covers(flight: InFlight, key: string): boolean {
  return flight === "all" || flight.has(key);
}
