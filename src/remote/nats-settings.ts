import type { Config } from "../config/schema.js";
import { shownUrl } from "../core/remote/shown-url.js";
import { gitStatus } from "../git/run.js";
import type { NatsSettings } from "./nats/link.js";

/**
 * The settings of `remote.engine: "nats"` (docs/remote.md): the server from TANDEM_NATS_URL or
 * `remote.nats.url`, credentials from TANDEM_NATS_CREDS or `remote.nats.creds` (a file's path), and
 * bucket names every clone of the repository computes alike. Type-only import of the NATS room:
 * reading the settings loads no client.
 */

export type SettingsOutcome =
  | { ok: true; settings: NatsSettings }
  | { ok: false; problem: string; fix: string };

const BUCKET = /^[A-Za-z0-9_-]{1,64}$/;

export { shownUrl };

/** The prefix of the buckets: the configured one, else one from the repository's root commit. */
function bucketOf(
  config: Config,
  top: string,
): { ok: true; name: string } | { ok: false; problem: string; fix: string } {
  if (config.natsBucket !== null)
    return BUCKET.test(config.natsBucket)
      ? { ok: true, name: config.natsBucket }
      : {
          ok: false,
          problem: `remote.nats.bucket "${config.natsBucket}" is not a bucket name`,
          fix: "use letters, digits, - and _ only (at most 64), or null for the default.",
        };
  const roots = gitStatus(top, ["rev-list", "--max-parents=0", "HEAD", "--"]);
  const first = roots.status === 0 ? roots.stdout.split("\n").filter(Boolean).sort()[0] : undefined;
  if (!first)
    return {
      ok: false,
      problem: "the repository has no commit yet, so its NATS buckets have no name",
      fix: "commit once (every clone then shares its root commit), or set remote.nats.bucket.",
    };
  return { ok: true, name: `tandem-${first.slice(0, 12)}` };
}

export function natsSettings(config: Config, top: string): SettingsOutcome {
  if (!config.natsUrl)
    return {
      ok: false,
      problem: 'remote.engine is "nats" but no NATS server is named',
      fix: 'set TANDEM_NATS_URL (or remote.nats.url), e.g. nats://127.0.0.1:4222, or set remote.engine back to "git".',
    };
  const bucket = bucketOf(config, top);
  if (!bucket.ok) return bucket;
  return {
    ok: true,
    settings: {
      url: config.natsUrl,
      creds: config.natsCreds,
      bucket: bucket.name,
      presenceTtlMs: config.natsPresenceTtlSeconds * 1000,
      timeoutMs: config.remoteTimeoutSeconds * 1000,
    },
  };
}
