import type { JsonOp, JsonPath } from "./json-edit.js";

/**
 * The registration algorithm of docs/clients.md §1.1, shared by the nested (Claude, Codex) and flat
 * (Cursor) layouts. A "unit" is one element of an event's array: a matcher group, or a flat entry.
 * Pure: it looks at parsed data and answers with edit operations.
 */

export interface Layout {
  /** Paths, relative to the unit, of the handlers in it that are ours (`[]` = the unit itself). */
  ours(unit: unknown): JsonPath[];
  /** How many handlers the unit holds. */
  size(unit: unknown): number;
}

/** One unit Tandem wants under a native event name. */
export interface WantedHook {
  event: string;
  unit: unknown;
}

export interface HookChange {
  event: string;
  kind: "add" | "update" | "remove";
  /** One human line saying what differs, for `--check` and `--dry-run`. */
  detail: string;
}

export type Reconciled = { ok: true; ops: JsonOp[]; changes: HookChange[] } | { ok: false; reason: string };

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Leaf values by dotted path, to name the fields that differ between two units. */
function leaves(v: unknown, prefix: string, out: Map<string, unknown>): Map<string, unknown> {
  if (isObject(v) || Array.isArray(v)) {
    for (const [k, x] of Object.entries(v)) leaves(x, prefix ? `${prefix}.${k}` : k, out);
  } else out.set(prefix, v);
  return out;
}

export function describeDifference(has: unknown, want: unknown): string {
  const a = leaves(has, "", new Map());
  const b = leaves(want, "", new Map());
  const parts: string[] = [];
  for (const key of new Set([...b.keys(), ...a.keys()])) {
    const name = key.split(".").at(-1) ?? key;
    if (!a.has(key)) parts.push(`${name} missing (want ${JSON.stringify(b.get(key))})`);
    else if (!b.has(key)) parts.push(`unexpected ${name}`);
    else if (!process.getBuiltinModule("node:util").isDeepStrictEqual(a.get(key), b.get(key))) {
      parts.push(`${name} is ${JSON.stringify(a.get(key))}, want ${JSON.stringify(b.get(key))}`);
    }
  }
  return parts.join("; ") || "differs";
}

/** Deepest first, so removing one member never shifts the index of another still to be removed. */
function byPathDescending(x: JsonPath, y: JsonPath): number {
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const a = x[i]!;
    const b = y[i]!;
    if (a !== b)
      return typeof a === "number" && typeof b === "number" ? b - a : String(b).localeCompare(String(a));
  }
  return y.length - x.length;
}

interface EventResult {
  ops: JsonOp[];
  changes: HookChange[];
  /** Every unit under the event was ours and is gone: drop the key as well. */
  emptied: boolean;
}

function reconcileEvent(
  event: string,
  units: unknown[],
  want: WantedHook | undefined,
  layout: Layout,
): EventResult {
  const base: JsonPath = ["hooks", event];
  const sets: JsonOp[] = [];
  const removals: JsonPath[] = [];
  const changes: HookChange[] = [];
  let kept = -1;
  let removedUnits = 0;
  units.forEach((unit, i) => {
    const mine = layout.ours(unit);
    if (mine.length === 0) return;
    // Updating our first dedicated unit in place keeps every index (and Codex trust key) stable.
    if (want && kept < 0 && mine.length === 1 && layout.size(unit) === 1) {
      kept = i;
      if (!process.getBuiltinModule("node:util").isDeepStrictEqual(unit, want.unit)) {
        sets.push({ op: "set", path: [...base, i], value: want.unit });
        changes.push({
          event,
          kind: "update",
          detail: `${event} hook differs: ${describeDifference(unit, want.unit)}`,
        });
      }
      return;
    }
    if (mine.length === layout.size(unit)) {
      removals.push([i]);
      removedUnits++;
    } else for (const p of mine) removals.push([i, ...p]);
    const detail = want
      ? `${event}: duplicate Tandem hook`
      : `${event}: Tandem hook for an event Tandem does not wire`;
    for (const _ of mine) changes.push({ event, kind: "remove", detail });
  });
  const emptied = !want && units.length > 0 && removedUnits === units.length;
  const ops: JsonOp[] = emptied
    ? [{ op: "remove", path: base }]
    : [
        ...sets,
        ...removals.sort(byPathDescending).map((p): JsonOp => ({ op: "remove", path: [...base, ...p] })),
      ];
  if (want && kept < 0) {
    ops.push({ op: "append", path: base, value: want.unit });
    changes.push({ event, kind: "add", detail: `${event} hook missing` });
  }
  return { ops, changes, emptied };
}

/**
 * For each wanted event: keep (or fix) one unit of ours, remove every other handler of ours (also
 * under events no longer wired), add the unit if missing. Foreign units are never touched; a unit,
 * event key or `hooks` object is dropped only when it held nothing but ours.
 */
export function reconcileHooks(hooks: unknown, wanted: readonly WantedHook[], layout: Layout): Reconciled {
  if (hooks !== undefined && !isObject(hooks)) return { ok: false, reason: `"hooks" is not an object` };
  const current = hooks ?? {};
  const want = new Map(wanted.map((w) => [w.event, w]));
  const ops: JsonOp[] = [];
  const changes: HookChange[] = [];
  let emptiedEvents = 0;
  for (const [event, units] of Object.entries(current)) {
    const w = want.get(event);
    if (!Array.isArray(units)) {
      if (w) return { ok: false, reason: `"hooks.${event}" is not an array` };
      continue;
    }
    const r = reconcileEvent(event, units, w, layout);
    ops.push(...r.ops);
    changes.push(...r.changes);
    if (r.emptied) emptiedEvents++;
  }
  for (const w of wanted) {
    if (Object.hasOwn(current, w.event)) continue;
    ops.push({ op: "append", path: ["hooks", w.event], value: w.unit });
    changes.push({ event: w.event, kind: "add", detail: `${w.event} hook missing` });
  }
  const keys = Object.keys(current).length;
  if (wanted.length === 0 && keys > 0 && emptiedEvents === keys)
    return { ok: true, ops: [{ op: "remove", path: ["hooks"] }], changes };
  return { ok: true, ops, changes };
}
