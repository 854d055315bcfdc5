import type { PresenceDoc } from "../core/remote/presence.js";
import { listRefs } from "./objects.js";

/**
 * Beat refs (decision 0062): `refs/tandem/alive/<checkout>/<ms>` on the checkout's presence commit.
 * The name carries when the checkout last said it is alive, so a beat creates no object.
 */
export const ALIVE_REFS = "refs/tandem/alive/";
export const SEEN_ALIVE = "refs/tandem/seen/alive/";
export const ALIVE_REFSPEC = `+${ALIVE_REFS}*:${SEEN_ALIVE}*`;

export interface Beat {
  at: number;
  /** Every beat ref of the checkout on the remote (a crash between two pushes may leave two). */
  refs: string[];
}

/** Each checkout's latest beat, from the beat refs fetched into refs/tandem/seen/alive/. */
export function readBeats(repo: string): Map<string, Beat> {
  const beats = new Map<string, Beat>();
  for (const r of listRefs(repo, SEEN_ALIVE)) {
    const [id, ms, ...rest] = r.ref.slice(SEEN_ALIVE.length).split("/");
    const at = Number(ms);
    if (!id || rest.length > 0 || !Number.isSafeInteger(at)) continue;
    const b = beats.get(id) ?? { at, refs: [] };
    b.at = Math.max(b.at, at);
    b.refs.push(`${ALIVE_REFS}${id}/${ms}`);
    beats.set(id, b);
  }
  return beats;
}

/** The documents with their checkout's latest beat attached as `alive`. */
export function withBeats(docs: readonly PresenceDoc[], beats: ReadonlyMap<string, Beat>): PresenceDoc[] {
  return docs.map((d) => {
    const beat = beats.get(d.checkout.id);
    return beat ? { ...d, alive: beat.at } : d;
  });
}

/** The local copy of a beat ref on the remote. */
export const seenBeat = (ref: string): string => `${SEEN_ALIVE}${ref.slice(ALIVE_REFS.length)}`;
