/**
 * Line claims at the claims gate (decision 0061): an edit tool's write to a file a live peer
 * holds is judged by the lines it changes. The texts are read before the write lock; the hunks'
 * authors and the verdict inside it, so a peer's write in between is seen.
 */

import { join, resolve } from "node:path";
import { holderOf, loadHeld } from "../claims/holders.js";
import { type FileTexts, hunksNow, observeFile, readTexts, tracked } from "../claims/line-authors.js";
import type { ToolCall } from "../clients/types.js";
import type { ClaimDecision, ClaimTarget, HeldClaim } from "../core/claims/decide.js";
import { decideLineClaim, type LineRefusal } from "../core/claims/line-claim.js";
import { proposedText } from "../core/claims/proposed.js";
import { splitLines } from "../core/lines/diff.js";
import { UNATTRIBUTED } from "../core/lines/layout.js";
import { openCalls } from "../core/safety/owner-versions.js";
import { lineAuthors } from "../store/claims/line-authors.js";
import { readSnapshot } from "../store/ledger/append.js";
import { openShellCommands, recentCalls } from "../store/safety/kept.js";
import { sessionById } from "../store/sessions/rows.js";
import { patchTextFromToolInput, updateSection } from "../targets/apply-patch.js";
import { PATCH_TOOLS } from "../targets/tool-targets.js";
import type { HookCtx } from "./context.js";

/** Tools whose result is known before they run; a shell command's is not, so it stays whole-file. */
export const LINE_TOOLS: ReadonlySet<string> = new Set([
  "Write",
  "Edit",
  "MultiEdit",
  "StrReplace",
  "write_file",
  "replace",
  ...PATCH_TOOLS,
]);

export interface LineFacts {
  target: ClaimTarget;
  texts: FileTexts;
  proposed: string;
}

const keyOf = (k: { worktree: string; path: string }) => `${k.worktree}\0${k.path}`;

function proposedFor(tool: ToolCall, target: ClaimTarget, current: string): string | null {
  const patch = PATCH_TOOLS.has(tool.name) ? patchTextFromToolInput(tool.input) : null;
  const body = patch === null ? null : updateSection(patch, target.raw);
  return proposedText(tool.name, tool.input, current, body);
}

/** Whether the file has hunks of an author other than the caller (a peer it shares the file with). */
function sharedWithOthers(ctx: HookCtx, t: ClaimTarget, caller: string | null): boolean {
  const row = lineAuthors(ctx.db, t.worktree, t.path);
  return row?.hunks.some((h) => h.owners.some((o) => o !== caller && o !== UNATTRIBUTED)) ?? false;
}

/**
 * Before the lock: the texts of each target a peer holds, or shares by lines, when the tool's
 * result is known. Empty for the many calls no peer touches, at the cost of one snapshot read.
 */
export function gatherLineFacts(
  ctx: HookCtx,
  tool: ToolCall,
  targets: readonly ClaimTarget[],
  caller: string | null,
): Map<string, LineFacts> {
  const out = new Map<string, LineFacts>();
  if (!LINE_TOOLS.has(tool.name) || targets.length === 0) return out;
  const contested = readSnapshot(ctx.db, () => {
    const held = loadHeld(ctx.db, ctx.now, ctx.config.freshnessSeconds);
    return targets.filter(
      (t) =>
        t.linkOf === undefined &&
        (held.some((h) => h.holder.id !== caller && keyOf(h) === keyOf(t)) ||
          sharedWithOthers(ctx, t, caller)),
    );
  });
  for (const t of contested) {
    const texts = readTexts(t.worktree, t.path);
    const proposed = texts ? proposedFor(tool, t, texts.current) : null;
    if (texts && proposed !== null) out.set(keyOf(t), { target: t, texts, proposed });
  }
  return out;
}

/**
 * Whether an author's hunks hold against the caller: a live session outside the caller's group;
 * with `unknown`, also a writer not known yet (in a file a live peer holds, most likely that
 * peer's call in flight).
 */
function blocker(
  ctx: HookCtx,
  caller: { id: string; group: string },
  unknown: boolean,
): (owner: string) => boolean {
  const memo = new Map<string, boolean>();
  return (owner) => {
    if (owner === caller.id) return false;
    if (owner === UNATTRIBUTED) return unknown;
    let v = memo.get(owner);
    if (v === undefined) {
      const s = sessionById(ctx.db, owner);
      const h = s ? holderOf(ctx.db, s, ctx.now, ctx.config.freshnessSeconds) : null;
      v = h?.live === true && h.group !== caller.group;
      memo.set(owner, v);
    }
    return v;
  };
}

/** Open calls are looked for this far back, as the owner watch does. */
const OPEN_WINDOW_MS = 10 * 60_000;

/**
 * Whether a call of `session` may be writing the file now (asked, not completed): its lines are not
 * known until its post-tool hook, so the file is judged whole meanwhile. A whole-tree shell command
 * may write anything.
 */
function inFlightOn(ctx: HookCtx, session: string, t: ClaimTarget): boolean {
  const shell = openShellCommands(ctx.db, session, ctx.now - OPEN_WINDOW_MS);
  if (shell.tree || shell.named.includes(t.path)) return true;
  const abs = join(t.worktree, t.path);
  const calls = openCalls(recentCalls(ctx.db, session), ctx.now, OPEN_WINDOW_MS);
  return calls.some((c) => c.targets.some((raw) => resolve(ctx.root.root, raw) === abs));
}

const nameOf = (ctx: HookCtx, id: string): string =>
  id === UNATTRIBUTED
    ? "a writer Tandem has not attributed yet (a person, or a call still running)"
    : (sessionById(ctx.db, id)?.name ?? id);

/** Each file's verdict by lines, inside the lock: the refusals, none when every change keeps clear. */
function refusalsOf(
  ctx: HookCtx,
  caller: { id: string; group: string },
  facts: Iterable<LineFacts>,
  heldByPeer: (f: LineFacts) => boolean,
): LineRefusal[] {
  const margin = ctx.config.lineClaimMargin;
  const refused: LineRefusal[] = [];
  for (const f of facts) {
    const { worktree, path } = f.texts;
    // What changed since the store last saw the file is nobody's we know yet: a holder's write whose
    // post-tool hook has not run, or a person's. Not recorded here, so that hook still credits it.
    const hunks = hunksNow(f.texts, lineAuthors(ctx.db, worktree, path), null);
    const blocks = blocker(ctx, caller, heldByPeer(f));
    const verdict = decideLineClaim({
      current: splitLines(f.texts.current),
      hunks,
      proposed: splitLines(f.proposed),
      blocks,
      margin,
    });
    if (!verdict.allow)
      refused.push({
        raw: f.target.raw,
        margin,
        overlaps: verdict.overlaps.map((o) => ({ ...o, name: nameOf(ctx, o.owner) })),
      });
  }
  return refused;
}

/**
 * Inside the lock, over the whole-file decision. A denial whose every conflict is a peer's claim
 * on a file the change keeps clear of by lines gives way: those claims are `shared` and the caller
 * decides again. An allowed call is still refused when it touches a peer's hunks in a file it holds
 * or shares. Null: the whole-file decision stands.
 */
export function judgeByLines(
  ctx: HookCtx,
  caller: { id: string; group: string },
  decision: ClaimDecision,
  facts: ReadonlyMap<string, LineFacts>,
): { shared: HeldClaim[] } | { refused: LineRefusal[] } | null {
  if (decision.allow) {
    const refused = refusalsOf(ctx, caller, facts.values(), () => false);
    return refused.length > 0 ? { refused } : null;
  }
  if (decision.refused.length > 0 || decision.conflicts.length === 0) return null;
  if (!decision.conflicts.every((c) => keyOf(c.claim) === keyOf(c.target) && facts.has(keyOf(c.target))))
    return null;
  if (decision.conflicts.some((c) => inFlightOn(ctx, c.claim.holder.id, c.target))) return null;
  // The first meeting in a file: its hunks so far are its holder's, recorded before they are judged.
  for (const c of decision.conflicts)
    if (!tracked(ctx.db, c.target.worktree, c.target.path))
      observeFile(ctx.db, c.target.worktree, c.target.path, null, ctx.now);
  const held = new Set(decision.conflicts.map((c) => keyOf(c.target)));
  const refused = refusalsOf(ctx, caller, facts.values(), (f) => held.has(keyOf(f.target)));
  return refused.length > 0 ? { refused } : { shared: decision.conflicts.map((c) => c.claim) };
}
