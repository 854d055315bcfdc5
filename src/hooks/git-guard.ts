/**
 * Destructive git commands judged before they run (docs/product.md §12 item 1):
 * git itself tells which dirty paths each command of the tool call would
 * overwrite, remove, unstage or commit past the pre-commit hook; a live peer's
 * path among them refuses the whole call. Facts are gathered here, outside the
 * write lock.
 */
import { join } from "node:path";
import { groupOf } from "../claims/holders.js";
import { peerOwned } from "../claims/peer-owned.js";
import type { GitCall } from "../core/git/call.js";
import { type GitGuardFinding, type JudgedGitCall, judgeGitCalls } from "../core/guards/git-guard.js";
import { relativeKey } from "../core/paths/lexical.js";
import { aliasReader, gitImpact } from "../git/impact.js";
import { expandSubmoduleCalls } from "../git/submodule-calls.js";
import { ownedWorktrees } from "../store/claims/rows.js";
import type { SessionRow } from "../store/sessions/rows.js";
import type { HookCtx } from "./context.js";
import { selfSession } from "./context.js";
import { judgedAsUnhooked } from "./unhooked-commit.js";

export interface GitGuardResult {
  findings: GitGuardFinding[];
  /** Commands whose effect git could not tell (when it was asked): the safety net covers them. */
  unknown: string[];
}

function commandText(call: GitCall): string {
  return call.text ?? ["git", ...call.args].join(" ");
}

/** Where and for whom git calls are judged: a hook's context, or `tandem land` for its check. */
export interface GitGuardScope {
  db: HookCtx["db"];
  /** The directory the command runs in. */
  cwd: string;
  /** The coordination root: claim keys are relative to it. */
  root: string;
  /** The top of the caller's own working tree. */
  ownTop: string;
  self: SessionRow | null;
  now: number;
  freshnessSeconds: number;
}

export function guardGitCalls(ctx: HookCtx, calls: readonly GitCall[]): GitGuardResult {
  if (calls.length === 0) return { findings: [], unknown: [] };
  return guardGitCallsIn(
    {
      db: ctx.db,
      cwd: ctx.input.cwd ?? ctx.root.root,
      root: ctx.root.root,
      ownTop: ctx.root.repo?.top ?? ctx.root.root,
      self: selfSession(ctx),
      now: ctx.now,
      freshnessSeconds: ctx.config.freshnessSeconds,
    },
    calls,
  );
}

export function guardGitCallsIn(ctx: GitGuardScope, given: readonly GitCall[]): GitGuardResult {
  if (given.length === 0) return { findings: [], unknown: [] };
  const cwd = ctx.cwd;
  const judged: JudgedGitCall[] = [];
  const unknown: string[] = [];
  // What earlier calls of the same command line stage (absolute), for a later commit that skips its
  // hook and takes the index.
  let staged: string[] = [];
  // The repository's aliases are asked of git once for the whole tool call.
  const aliases = aliasReader();
  let known: Set<string> | null = null;
  const worktrees = () => {
    known ??= ownedWorktrees(ctx.db);
    return known;
  };
  const self = ctx.self;
  const query = (worktree: string) =>
    peerOwned(ctx.db, {
      worktree,
      self: self?.id ?? "",
      group: self ? groupOf(ctx.db, self) : "",
      now: ctx.now,
      freshnessSeconds: ctx.freshnessSeconds,
    });
  const here = query(ctx.root);
  // No live peer owns anything here, and no other worktree has owners: no git command can touch a
  // peer's work, so git is not asked at all (a plain `git reset` costs nothing when alone).
  if (here.size === 0 && ![...worktrees()].some((w) => isOtherWorktree(ctx, w, worktrees)))
    return { findings: [], unknown };
  // `git submodule update --force`, `deinit -f`, `foreach`: judged as what they do in each submodule.
  const calls = expandSubmoduleCalls(given, cwd);
  const ownTop = ctx.ownTop;
  for (const call of calls) {
    // Aliases are resolved by the planner, so `git a f` with `alias.a=add` stages like `git add f`.
    const impact = gitImpact(judgedAsUnhooked(call, cwd, ownTop), cwd, aliases);
    if (impact.unknown !== null) {
      unknown.push(`${commandText(call)}: ${impact.unknown}`);
      continue;
    }
    const top = impact.repoTop;
    // Nothing at risk, told from the words alone (a read, a commit whose hook runs): git is not asked.
    if (top === null) continue;
    const all = (paths: string[]) => paths.map((p) => join(top, p));
    const commits = [...all(impact.committed), ...(impact.commitsIndex ? staged : [])];
    staged = [...staged, ...all(impact.stages)];
    // `git -C ../wt …` works in another worktree: judged against the sessions working there.
    if (isOtherWorktree(ctx, top, worktrees)) {
      const rel = (paths: string[]) => paths.map((p) => relativeKey(top, p));
      judged.push({
        command: commandText(call),
        atRisk: impact.atRisk,
        committed: rel(commits),
        stagedLost: impact.stagedLost,
        worktree: top,
      });
      continue;
    }
    const key = (paths: string[]) => paths.map((p) => relativeKey(ctx.root, p));
    judged.push({
      command: commandText(call),
      atRisk: key(all(impact.atRisk)),
      committed: key(commits),
      stagedLost: key(all(impact.stagedLost)),
    });
  }
  if (judged.every((j) => j.atRisk.length === 0 && j.committed.length === 0 && j.stagedLost.length === 0))
    return { findings: [], unknown };
  const elsewhere = new Map(
    judged.flatMap((j) => (j.worktree === undefined ? [] : [[j.worktree, query(j.worktree)] as const])),
  );
  return { findings: judgeGitCalls(judged, here, elsewhere), unknown };
}

/**
 * A working tree other than the caller's own where sessions work (a linked worktree, or the main
 * one): its claims are keyed by its own top. A submodule's paths stay keyed by the caller's root.
 */
function isOtherWorktree(ctx: GitGuardScope, top: string, known: () => Set<string>): boolean {
  return top !== ctx.ownTop && top !== ctx.root && known().has(top);
}
