import { readFileSync } from "node:fs";
import { type KV, Kvm } from "@nats-io/kv";
import { connect, credsAuthenticator, type NatsConnection } from "@nats-io/transport-node";
import { bucketMadeElsewhere } from "../../core/remote/bucket-race.js";
import { DOC_MAX_AGE_MS } from "../../core/remote/kv-presence.js";
import { shownUrl } from "../../core/remote/shown-url.js";

/**
 * The connection to the NATS server of `remote.engine: "nats"` (docs/remote.md) and the
 * repository's three buckets. Only the commands that talk to NATS load this room (sync, reserve,
 * conflicts, doctor), through a dynamic import: no hook pays for the client.
 */

export interface NatsSettings {
  url: string;
  /** A .creds file's path (user JWT and seed), or null. */
  creds: string | null;
  /** Prefix of the bucket names. */
  bucket: string;
  presenceTtlMs: number;
  timeoutMs: number;
}

export interface NatsLink {
  /** The presence documents, put when they change. */
  presence: KV;
  /** One small key per checkout with live sessions; the bucket's max age is the presence TTL. */
  alive: KV;
  leases: KV;
  /** The server's version, for doctor. */
  server: string;
  /** Bytes and messages this connection moved so far (the fleet bench's traffic). */
  stats(): { inBytes: number; outBytes: number };
  close(): Promise<void>;
}

export class NatsLinkError extends Error {}

/** Opens a connection and both buckets, making them on first use; every failure is a NatsLinkError. */
export async function openNats(s: NatsSettings): Promise<NatsLink> {
  let nc: NatsConnection;
  try {
    const authenticator = s.creds ? credsAuthenticator(readFileSync(s.creds)) : undefined;
    nc = await connect({
      servers: s.url,
      timeout: s.timeoutMs,
      maxReconnectAttempts: 0,
      name: "tandem",
      ...(authenticator ? { authenticator } : {}),
    });
  } catch (err) {
    throw new NatsLinkError(`cannot connect to ${shownUrl(s.url)}: ${(err as Error).message}`);
  }
  try {
    const kvm = new Kvm(nc);
    // An alive mark lives as long as its bucket's max age; leases carry their own expiry.
    const presence = await bucket(kvm, `${s.bucket}-presence`, { ttl: DOC_MAX_AGE_MS, history: 1 });
    const alive = await bucket(kvm, `${s.bucket}-alive`, { ttl: s.presenceTtlMs, history: 1 });
    const leases = await bucket(kvm, `${s.bucket}-leases`, { history: 1 });
    return {
      presence,
      alive,
      leases,
      server: nc.info?.version ?? "unknown",
      stats: () => nc.stats(),
      close: () => nc.close(),
    };
  } catch (err) {
    await nc.close().catch(() => {});
    throw new NatsLinkError(`${shownUrl(s.url)} has no usable JetStream: ${(err as Error).message}`);
  }
}

/** The bucket, made if absent; one another clone made first (with any settings) is used as it is. */
async function bucket(kvm: Kvm, name: string, opts: { ttl?: number; history: number }): Promise<KV> {
  try {
    return await kvm.create(name, opts);
  } catch (err) {
    if (!bucketMadeElsewhere((err as Error).message)) throw err;
    return await kvm.open(name);
  }
}
