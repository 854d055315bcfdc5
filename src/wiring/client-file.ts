import { applyJsonOps, hasComments, type JsonOp, parseJson } from "./json-edit.js";
import {
  type HookChange,
  isObject,
  type Layout,
  type Reconciled,
  reconcileHooks,
  type WantedHook,
} from "./reconcile.js";

export type Mode = "init" | "deinit";

/** What differs between the layouts and files of the clients, around the shared algorithm. */
export interface ClientFileFormat {
  layout: Layout;
  /** The whole document of a file that does not exist yet. */
  fresh(hooks: Record<string, unknown[]>): Record<string, unknown>;
  /** Why init must not write into this document, or null. */
  refuse(doc: Record<string, unknown>): string | null;
  /** Top-level fixes init makes besides the hooks (Cursor's `version`). */
  topLevel(doc: Record<string, unknown>): { ops: JsonOp[]; changes: HookChange[] };
  /** Other entries Tandem owns besides the hooks (Claude's allow rules), in both modes. */
  extra?(doc: Record<string, unknown>, mode: Mode): Reconciled;
  /** What init creates, minus the hooks: deinit deletes a file reduced to this. */
  isSkeleton(doc: Record<string, unknown>): boolean;
}

export interface FileOutcome {
  action: "create" | "update" | "unchanged" | "delete" | "refuse";
  /** The text to write for create/update. */
  after: string | null;
  changes: HookChange[];
  /** For refuse: what is wrong, starting with the file. */
  reason?: string;
}

const NOTHING = { ok: true as const, ops: [] as JsonOp[], changes: [] as HookChange[] };
const refuse = (reason: string): FileOutcome => ({ action: "refuse", after: null, changes: [], reason });
const FIX = "fix it or move the file aside, then re-run";

function freshText(wanted: readonly WantedHook[], format: ClientFileFormat): string {
  const hooks: Record<string, unknown[]> = {};
  for (const w of wanted) hooks[w.event] = [...(hooks[w.event] ?? []), w.unit];
  return `${JSON.stringify(format.fresh(hooks), null, 2)}\n`;
}

/** A second pass over what we are about to write must find nothing left to do. */
function settled(
  display: string,
  text: string,
  wanted: readonly WantedHook[],
  format: ClientFileFormat,
  mode: Mode,
): boolean {
  const parsed = parseJson(display, text);
  if (!parsed.ok || !isObject(parsed.value)) return false;
  const again = reconcileHooks(parsed.value.hooks, wanted, format.layout);
  const extra = format.extra?.(parsed.value, mode) ?? NOTHING;
  return again.ok && again.ops.length === 0 && extra.ok && extra.ops.length === 0;
}

/**
 * Plans one client settings file: `text` is its current content (null when absent), `wanted` the
 * hooks Tandem should own in it (none for deinit). Pure; nothing is read or written here.
 */
export function planClientFile(
  display: string,
  text: string | null,
  wanted: readonly WantedHook[],
  format: ClientFileFormat,
  mode: Mode,
): FileOutcome {
  if (text === null || text.trim() === "") {
    // A fresh file holds the hooks; what else Tandem wants is then added as to any other file.
    const extra = format.extra?.({}, mode) ?? NOTHING;
    const more = extra.ok ? extra : NOTHING;
    if (wanted.length === 0 && more.ops.length === 0)
      return { action: "unchanged", after: text, changes: [] };
    const changes = wanted.map(
      (w): HookChange => ({ event: w.event, kind: "add", detail: `${w.event} hook missing` }),
    );
    const after = applyJsonOps(freshText(wanted, format), more.ops);
    return { action: text === null ? "create" : "update", after, changes: [...changes, ...more.changes] };
  }
  const parsed = parseJson(display, text);
  if (!parsed.ok) return refuse(`${parsed.reason}; ${FIX}`);
  const doc = parsed.value;
  if (!isObject(doc)) return refuse(`${display}: the top level is not a JSON object; ${FIX}`);
  const refusal = mode === "init" ? format.refuse(doc) : null;
  if (refusal) return refuse(`${display}: ${refusal}`);
  const hooks = reconcileHooks(doc.hooks, wanted, format.layout);
  if (!hooks.ok) return refuse(`${display}: ${hooks.reason}; ${FIX}`);
  const extra = format.extra?.(doc, mode) ?? NOTHING;
  if (!extra.ok) return refuse(`${display}: ${extra.reason}; ${FIX}`);
  const top = mode === "init" ? format.topLevel(doc) : { ops: [], changes: [] };
  const ops = [...top.ops, ...hooks.ops, ...extra.ops];
  const changes = [...top.changes, ...hooks.changes, ...extra.changes];
  if (ops.length === 0) return { action: "unchanged", after: text, changes };
  const after = applyJsonOps(text, ops);
  if (!settled(display, after, wanted, format, mode)) {
    return refuse(`${display}: Tandem could not edit this file safely; add its hooks by hand or report this`);
  }
  if (mode === "deinit") {
    const left = parseJson(display, after);
    if (left.ok && isObject(left.value) && format.isSkeleton(left.value) && !hasComments(after)) {
      return { action: "delete", after: null, changes };
    }
  }
  return { action: "update", after, changes };
}
