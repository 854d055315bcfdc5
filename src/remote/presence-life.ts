import type { Config } from "../config/schema.js";

/**
 * How long another checkout's presence document counts by the reader's clock. Over NATS the
 * server expires it after the bucket's time to live and a sync round drops it; this bound keeps a
 * view honest between rounds too (decision 0063). Over git it is `remote.presenceTtlMinutes`.
 */
export function presenceLifeMs(c: Config): number {
  return c.remoteEngine === "nats" ? c.natsPresenceTtlSeconds * 1000 : c.remotePresenceTtlMinutes * 60_000;
}

/** Whether this checkout may share at all: a NATS server named, or a Git remote in the repository's config. */
export function engineConfigured(c: Config, hasGitRemote: () => boolean): boolean {
  return c.remoteEngine === "nats" ? c.natsUrl !== null : hasGitRemote();
}
