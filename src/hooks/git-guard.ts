/**
 * Destructive git commands judged before they run (docs/product.md §12 item 1):
 * git itself tells which dirty paths each command of the tool call would
 * overwrite, remove or commit past the pre-commit hook; a live peer's path among
 * them refuses the whole call. Facts are gathered here, outside the write lock.
 */
import { join } from "node:path";
import { groupOf } from "../claims/holders.js";
import { peerOwned } from "../claims/peer-owned.js";
import type { GitCall } from "../core/git-call.js";
import { type GitGuardFinding, type JudgedGitCall, judgeGitCalls } from "../core/git-guard.js";
import { relativeKey } from "../core/paths.js";
import { gitImpact } from "../git/impact.js";
import { sessionByNative } from "../store/queries.js";
import type { HookCtx } from "./context.js";

export interface GitGuardResult {
  findings: GitGuardFinding[];
  /** Commands whose effect git could not tell: the safety net covers them. */
  unknown: string[];
}

function commandText(call: GitCall): string {
  return ["git", ...call.args].join(" ");
}

export function guardGitCalls(ctx: HookCtx, calls: readonly GitCall[]): GitGuardResult {
  if (calls.length === 0) return { findings: [], unknown: [] };
  const cwd = ctx.input.cwd ?? ctx.root.root;
  const judged: JudgedGitCall[] = [];
  const unknown: string[] = [];
  for (const call of calls) {
    const impact = gitImpact(call, cwd);
    if (impact.unknown !== null || impact.repoTop === null) {
      unknown.push(`${commandText(call)}: ${impact.unknown ?? "not in a repository"}`);
      continue;
    }
    const top = impact.repoTop;
    const key = (p: string) => relativeKey(ctx.root.root, join(top, p));
    judged.push({
      command: commandText(call),
      atRisk: impact.atRisk.map(key),
      committed: impact.committed.map(key),
    });
  }
  if (judged.every((j) => j.atRisk.length === 0 && j.committed.length === 0))
    return { findings: [], unknown };
  const self = sessionByNative(ctx.db, ctx.client.name, ctx.input.sessionId);
  const owners = peerOwned(ctx.db, {
    worktree: ctx.root.root,
    self: self?.id ?? "",
    group: self ? groupOf(ctx.db, self) : "",
    now: ctx.now,
    freshnessSeconds: ctx.config.freshnessSeconds,
  });
  return { findings: judgeGitCalls(judged, owners), unknown };
}
