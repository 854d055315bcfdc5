import { type PresenceDoc, presenceSubstance } from "./presence.js";

/** Decisions of one sync round (docs/decisions/0014); the round itself is src/remote/sync.ts. */

/**
 * Whether to publish `mine` over what the remote holds for this checkout: when the remote has
 * nothing (or something unreadable), when the substance changed, or when it is `intervalMs` old
 * (so others see the sessions are still there). A date in the future counts as now.
 */
export function shouldPublish(
  mine: PresenceDoc,
  onRemote: PresenceDoc | null,
  intervalMs: number,
  now: number,
): boolean {
  if (!onRemote) return true;
  if (presenceSubstance(mine) !== presenceSubstance(onRemote)) return true;
  return now - Math.min(onRemote.published, now) >= intervalMs;
}

/** Other checkouts silent longer than `maxAgeMs`: their refs go with `tandem sync --prune`. */
export function staleCheckouts(
  docs: readonly PresenceDoc[],
  self: string,
  maxAgeMs: number,
  now: number,
): PresenceDoc[] {
  return docs.filter((d) => d.checkout.id !== self && now - d.published > maxAgeMs);
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
