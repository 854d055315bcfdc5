import type { Config } from "../config/schema.js";

/**
 * How long another checkout's presence document counts by the reader's clock. Over NATS a round
 * keeps only documents whose alive mark lives (dated by that mark), so this bound only covers the
 * time between rounds: twice the TTL, leaving a TTL's room for clock skew (decision 0063). Over
 * git it is `remote.presenceTtlMinutes`.
 */
export function presenceLifeMs(c: Config): number {
  return c.remoteEngine === "nats"
    ? 2 * c.natsPresenceTtlSeconds * 1000
    : c.remotePresenceTtlMinutes * 60_000;
}

/** Whether this checkout may share at all: a NATS server named, or a Git remote in the repository's config. */
export function engineConfigured(c: Config, hasGitRemote: () => boolean): boolean {
  return c.remoteEngine === "nats" ? c.natsUrl !== null : hasGitRemote();
}
