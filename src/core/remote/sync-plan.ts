import { type PresenceDoc, presenceSubstance } from "./presence.js";

/** Decisions of one sync round (docs/decisions/0014); the round itself is src/remote/sync.ts. */

/**
 * Whether to publish `mine` over what the remote holds for this checkout: only when the remote
 * has nothing (or something unreadable) or the substance changed (decision 0062). That the
 * sessions are still there is said by a beat, which creates no object.
 */
export function shouldPublish(mine: PresenceDoc, onRemote: PresenceDoc | null): boolean {
  return !onRemote || presenceSubstance(mine) !== presenceSubstance(onRemote);
}

/**
 * Whether this round moves the checkout's beat ref: when it has none, or its last beat is half
 * an interval old or older (rounds start at most once an interval). A beat dated ahead of our
 * clock counts as now.
 */
export function shouldBeat(lastBeat: number | null, intervalMs: number, now: number): boolean {
  return lastBeat === null || now - Math.min(lastBeat, now) >= intervalMs / 2;
}

/** When a checkout last said anything: its document's publication or its last beat. */
export const lastAlive = (d: PresenceDoc): number => Math.max(d.published, d.alive ?? 0);

/** Other checkouts silent longer than `maxAgeMs`: their refs go with `tandem sync --prune`. */
export function staleCheckouts(
  docs: readonly PresenceDoc[],
  self: string,
  maxAgeMs: number,
  now: number,
): PresenceDoc[] {
  return docs.filter((d) => d.checkout.id !== self && now - lastAlive(d) > maxAgeMs);
}

export type SyncStage = "remote" | "fetch" | "publish" | "prune";

/** What to do about a failed round, from git's own words. */
export function syncFix(
  stage: SyncStage,
  gitError: string,
  remote: string | null,
  timeoutSeconds: number,
): string {
  const e = gitError.toLowerCase();
  if (stage === "remote")
    return "add a remote (`git remote add origin URL`) or set remote.name in .tandem/config.jsonc; set remote.enabled to false to stop sharing presence.";
  if (e.includes("etimedout") || e.includes("timed out"))
    return `${remote} did not answer within ${timeoutSeconds}s: check that \`git fetch ${remote}\` works, or raise remote.timeoutSeconds.`;
  if (
    stage !== "fetch" &&
    /declined|remote rejected|deny|denied|refusing|not permitted|read.only|403/.test(e)
  )
    return `${remote} refuses Tandem's refs (refs/tandem/*): allow them for your account on the server, point remote.name at a remote that accepts them, or set remote.enabled to false.`;
  if (
    /could not read|unable to access|connection refused|could not resolve|not found|does not appear/.test(e)
  )
    return `${remote} cannot be reached: check that \`git fetch ${remote}\` works here (URL, network, credentials).`;
  // Stored with the round and read later by anyone: the retry is named, not spelled for a reader.
  return `run \`git fetch ${remote}\` and \`git push ${remote}\` by hand to see why; the next sync round retries.`;
}
