// The replay bench's fixture (bench/fixtures/replay.json.gz, made by bench/fixtures/make-replay.mjs):
// versions of hub files rebuilt from their delta chain, and one commit's change carried onto
// another text the way an Edit tool carries its old string: found by its lines and context.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

export function loadFixture() {
  const raw = readFileSync(new URL("./fixtures/replay.json.gz", import.meta.url));
  const fixture = JSON.parse(gunzipSync(raw).toString("utf8"));
  const texts = new Map([["", []]]);
  for (const v of fixture.versions) {
    const prev = texts.get(v.from);
    const next = [];
    let at = 0;
    for (const [aStart, aEnd, lines] of v.ops) {
      next.push(...prev.slice(at, aStart), ...lines);
      at = aEnd;
    }
    next.push(...prev.slice(at));
    texts.set(v.id, next);
  }
  return { commits: fixture.commits, rev: fixture.rev, text: (id) => texts.get(id) };
}

const CONTEXT = 3;

function matchesAt(text, at, block) {
  if (at < 0 || at + block.length > text.length) return false;
  for (let i = 0; i < block.length; i++) if (text[at + i] !== block[i]) return false;
  return true;
}

/** The start of `block` in `text` nearest to `near`, or -1. */
function nearest(text, block, near) {
  for (let d = 0; d <= text.length; d++) {
    if (matchesAt(text, near - d, block)) return near - d;
    if (d > 0 && matchesAt(text, near + d, block)) return near + d;
    if (near - d < 0 && near + d > text.length) break;
  }
  return -1;
}

/**
 * `hunks` (a diff of `before` → `after`) carried onto `onto`: each hunk's old lines found with
 * their context, nearest where they were, as `patch` does; less context is tried before giving
 * up, but an insertion needs a line of it to know where it goes. Null when a hunk is not found.
 */
export function carry(hunks, before, after, onto) {
  const out = [];
  let from = 0;
  let shift = 0;
  for (const h of hunks) {
    let placed = -1;
    let lead = 0;
    for (let c = CONTEXT; c >= 0 && placed < 0; c--) {
      lead = Math.min(c, h.aStart);
      const trail = Math.min(c, before.length - h.aEnd);
      if (lead + trail + (h.aEnd - h.aStart) === 0) break;
      const block = before.slice(h.aStart - lead, h.aEnd + trail);
      const at = nearest(onto, block, h.aStart - lead + shift);
      if (at >= from) placed = at + lead;
    }
    if (placed < 0) return null;
    out.push(...onto.slice(from, placed), ...after.slice(h.bStart, h.bEnd));
    from = placed + (h.aEnd - h.aStart);
    shift = placed - h.aStart;
  }
  out.push(...onto.slice(from));
  return out;
}
