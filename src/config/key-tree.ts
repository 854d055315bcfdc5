import type { KeyDef } from "./keys.js";

/** The nesting of the file: each level's keys in table order, a leaf for each declared key. */
export type KeyTree<T> = Map<string, KeyTree<T> | T>;

export function keyTree<T>(defs: readonly KeyDef[], leaf: (def: KeyDef) => T): KeyTree<T> {
  const root: KeyTree<T> = new Map();
  for (const def of defs) {
    const parts = def.key.split(".");
    let level = root;
    for (const part of parts.slice(0, -1)) {
      let next = level.get(part);
      if (!(next instanceof Map)) {
        next = new Map();
        level.set(part, next);
      }
      level = next;
    }
    level.set(parts.at(-1)!, leaf(def));
  }
  return root;
}
