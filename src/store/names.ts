import type { Db } from "./db.js";

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
 */
export function pickSessionName(db: Db, seed: string): string {
  const taken = new Set(
    (db.prepare("SELECT name FROM sessions").all() as { name: string }[]).map((r) => r.name),
  );
  let h = 0;
  for (const ch of seed) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  for (let round = 0; ; round++) {
    for (let i = 0; i < WORDS.length; i++) {
      const word = WORDS[(h + i) % WORDS.length]!;
      const name = round === 0 ? `agent-${word}` : `agent-${word}-${round + 1}`;
      if (!taken.has(name)) return name;
    }
  }
}
