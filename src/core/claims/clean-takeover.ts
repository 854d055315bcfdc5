/**
 * Clean takeover without a subprocess under the store's write lock: `git
 * status` runs first, on a snapshot of the claims, and the decision inside the
 * short transaction trusts its answer only for claims that did not change since.
 */
import { CLEAN_TAKEOVER_GRACE_MS, type ClaimTarget, type HeldClaim, overlaps } from "./decide.js";

/** What identifies one holding of a claim: who holds it, since when, and the holder's latest event. */
export interface ClaimStamp {
  holder: string;
  acquiredSeq: number;
  /** The holder's last recorded event: any new activity of the holder voids an earlier `git status`. */
  holderSeq: number;
}

/** `git status`'s answer for one claim, with the stamp of the claim it was asked for. */
export interface CleanFact extends ClaimStamp {
  clean: boolean;
}

export const claimKey = (c: { worktree: string; path: string }): string => `${c.worktree}\0${c.path}`;

/**
 * Claims worth a `git status`: live peers' claims past the grace period that
 * would block this call. The caller is null when it has no session yet.
 */
export function takeoverCandidates(
  held: readonly HeldClaim[],
  targets: readonly ClaimTarget[],
  caller: { id: string; group: string } | null,
  now: number,
): HeldClaim[] {
  return held.filter(
    (c) =>
      (caller === null || (c.holder.id !== caller.id && c.holder.group !== caller.group)) &&
      c.holder.live &&
      now - c.acquiredAt >= CLEAN_TAKEOVER_GRACE_MS &&
      targets.some((t) => overlaps(c, t)),
  );
}

/** A claimed path is clean when neither it nor anything under it is dirty; the whole worktree never is. */
export function isClean(path: string, dirty: readonly string[]): boolean {
  return path !== "." && !dirty.some((d) => d === path || d.startsWith(`${path}/`));
}

const sameStamp = (a: ClaimStamp, b: ClaimStamp): boolean =>
  a.holder === b.holder && a.acquiredSeq === b.acquiredSeq && a.holderSeq === b.holderSeq;

/**
 * The held claims as judged inside the transaction, with `clean` set only where
 * a fact was gathered for this very holding; anything else stays unknown
 * (null), and unknown never takes a claim over.
 */
export function withTrustedClean(
  held: readonly HeldClaim[],
  stamps: ReadonlyMap<string, ClaimStamp>,
  facts: ReadonlyMap<string, CleanFact>,
): HeldClaim[] {
  return held.map((c) => {
    const fact = facts.get(claimKey(c));
    const stamp = stamps.get(claimKey(c));
    const trusted = fact !== undefined && stamp !== undefined && sameStamp(fact, stamp);
    return { ...c, clean: trusted ? fact.clean : null };
  });
}
