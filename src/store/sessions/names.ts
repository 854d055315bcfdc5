import type { Db } from "../db.js";
import { stmt } from "../db.js";

const WORDS = [
  "wren",
  "finch",
  "heron",
  "lark",
  "robin",
  "swift",
  "kite",
  "owl",
  "crane",
  "tern",
  "plover",
  "dove",
  "jay",
  "merlin",
  "osprey",
  "raven",
  "shrike",
  "stork",
  "teal",
  "thrush",
  "vireo",
  "warbler",
  "egret",
  "ibis",
  "linnet",
  "martin",
  "pipit",
  "rail",
  "siskin",
  "sparrow",
  "starling",
  "swallow",
  "wigeon",
  "avocet",
  "bunting",
  "curlew",
  "dunlin",
  "eider",
  "gannet",
  "godwit",
  "grebe",
  "hobby",
  "knot",
  "puffin",
  "redstart",
  "ruff",
  "scoter",
  "smew",
  "snipe",
  "stint",
  "tit",
  "twite",
  "whimbrel",
  "yellowhammer",
];

/**
 * Picks a short unused name. Must run inside the write transaction that records
 * session.started, so two sessions starting at once can never take the same one.
 * Each candidate is one lookup in the unique name index, never a read of every session:
 * once the plain names are taken (a few dozen sessions in), a numbered one is drawn from
 * a range twice the size of the sessions table, so half its numbers at least are free.
 */
export function pickSessionName(db: Db, seed: string): string {
  const taken = stmt(db, "SELECT 1 FROM sessions WHERE name = ?");
  const free = (name: string) => taken.get(name) === undefined;
  let h = 0;
  for (const ch of seed) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  for (let i = 0; i < WORDS.length; i++) {
    const name = `agent-${WORDS[(h + i) % WORDS.length]!}`;
    if (free(name)) return name;
  }
  const rows = (stmt(db, "SELECT coalesce(max(rowid), 0) AS n FROM sessions").get() as { n: number }).n;
  const range = 2 * Math.ceil(rows / WORDS.length) + 2;
  for (let draw = 0; ; draw++) {
    h = (Math.imul(h, 1103515245) + 12345) >>> 0;
    const word = WORDS[(h >>> 8) % WORDS.length]!;
    // Past a few unlucky draws, the range grows: a name is always found.
    const name = `agent-${word}-${2 + (h % (range << Math.floor(draw / 8)))}`;
    if (free(name)) return name;
  }
}
