import * as z from "zod/mini";

/**
 * The presence document a checkout publishes on the remote (docs/decisions/0014): paths and
 * metadata of its live sessions, never file contents. Parsed strictly: a document of another
 * format or a damaged one is ignored, never half-read.
 */
export const PRESENCE_FORMAT = 1;

const session = z.object({
  name: z.string(),
  client: z.string(),
  task: z.nullable(z.string()),
  branch: z.nullable(z.string()),
  lastSeen: z.number(),
  claims: z.array(z.string()),
  dirty: z.array(z.string()),
});

const doc = z.object({
  format: z.literal(PRESENCE_FORMAT),
  checkout: z.object({ id: z.string(), name: z.string() }),
  published: z.number(),
  base: z.nullable(z.string()),
  branch: z.nullable(z.string()),
  upstream: z.nullable(z.string()),
  sessions: z.array(session),
  /**
   * When the checkout last said it is alive (decision 0062): read from its beat ref by the reader,
   * never published in the document, so a beat creates no object.
   */
  alive: z.optional(z.number()),
});

export type PresenceSession = z.infer<typeof session>;
export type PresenceDoc = z.infer<typeof doc>;

export function parsePresence(text: string): PresenceDoc | null {
  try {
    const parsed = doc.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Stable text for a document (sorted paths), so an unchanged presence is not published again. */
export function presenceText(d: PresenceDoc): string {
  const sessions = [...d.sessions]
    .map((s) => ({ ...s, claims: [...s.claims].sort(), dirty: [...s.dirty].sort() }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return `${JSON.stringify({ ...d, sessions }, null, 1)}\n`;
}

/** The document without its publication time: what decides whether it changed. */
export function presenceSubstance(d: PresenceDoc): string {
  const { alive: _, ...rest } = d;
  return presenceText({ ...rest, published: 0, sessions: d.sessions.map((s) => ({ ...s, lastSeen: 0 })) });
}

export interface Freshness {
  /** A remote session counts while seen this recently before its document was published. */
  sessionMs: number;
  /** A document older than this by the reader's clock is ignored. */
  documentMs: number;
}

export interface LiveRemoteSession {
  doc: PresenceDoc;
  session: PresenceSession;
  /** When the information was last confirmed: its publication or the checkout's last beat (not after now). */
  asOf: number;
  branch: string | null;
}

/**
 * The live sessions of other checkouts' documents (docs/decisions/0014, 0062): the one rule every
 * view and the gate share. A document is published only when it changes; its checkout's beat says
 * it still holds. A document neither published nor confirmed by a beat within `documentMs` by our
 * clock is ignored; a session counts while it was seen within `sessionMs` before its document's
 * publication.
 */
export function liveRemoteSessions(
  docs: readonly PresenceDoc[],
  self: string | null,
  now: number,
  fresh: Freshness,
): LiveRemoteSession[] {
  const out: LiveRemoteSession[] = [];
  for (const doc of docs) {
    if (doc.checkout.id === self) continue;
    const asOf = Math.min(Math.max(doc.published, doc.alive ?? 0), now);
    if (now - asOf > fresh.documentMs) continue;
    const published = Math.min(doc.published, now);
    for (const session of doc.sessions) {
      if (published - session.lastSeen > fresh.sessionMs) continue;
      out.push({ doc, session, asOf, branch: session.branch ?? doc.branch });
    }
  }
  return out;
}
