/**
 * Destructive git commands judged before they run (docs/product.md §12 item 1):
 * git itself tells which dirty paths each command of the tool call would
 * overwrite, remove or commit past the pre-commit hook; a live peer's path among
 * them refuses the whole call. Facts are gathered here, outside the write lock.
 */
import { join } from "node:path";
import { groupOf } from "../claims/holders.js";
import { peerOwned } from "../claims/peer-owned.js";
import type { GitCall } from "../core/git/call.js";
import { type GitGuardFinding, type JudgedGitCall, judgeGitCalls } from "../core/guards/git-guard.js";
import { relativeKey } from "../core/paths/lexical.js";
import { aliasReader, gitImpact } from "../git/impact.js";
import { ownedWorktrees } from "../store/queries.js";
import type { HookCtx } from "./context.js";
import { selfSession } from "./context.js";

export interface GitGuardResult {
  findings: GitGuardFinding[];
  /** Commands whose effect git could not tell: the safety net covers them. */
  unknown: string[];
}

function subcommandAt(args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-c") i++;
    else if (!args[i]!.startsWith("-")) return i;
  }
  return -1;
}

/**
 * `git add …` as the dirty paths it would stage, asked as `stash push` over the
 * same pathspec (which takes exactly the dirty paths a pathspec matches); null for
 * any other subcommand.
 */
function stagingOf(call: GitCall): GitCall | null {
  const at = subcommandAt(call.args);
  if (at < 0 || call.args[at] !== "add") return null;
  const args = call.args.slice(at + 1);
  const sep = args.indexOf("--");
  const head = sep < 0 ? args : args.slice(0, sep);
  const options = head.filter((a) => a.startsWith("-"));
  const paths = [...head.filter((a) => !a.startsWith("-")), ...(sep < 0 ? [] : args.slice(sep + 1))];
  if (options.some((o) => o === "-n" || o === "--dry-run")) return null;
  const tracked = options.some((o) => /^(-[a-zA-Z]*u|--update)$/.test(o));
  const all = tracked || options.some((o) => /^(-[a-zA-Z]*A|--all)$/.test(o));
  if (paths.length === 0 && !all) return null;
  const stash = ["stash", "push", ...(tracked ? [] : ["-u"]), "--", ...(paths.length ? paths : [":/"])];
  return { cwd: call.cwd, args: [...call.args.slice(0, at), ...stash] };
}

/** Whether the commit skips its pre-commit hook: only then does this guard judge what it commits. */
function skipsCommitHook(call: GitCall): boolean {
  const at = subcommandAt(call.args);
  if (at < 0 || call.args[at] !== "commit") return false;
  const globals = call.args.slice(0, at);
  const hooksOff = globals.some(
    (g, i) => globals[i - 1] === "-c" && g.toLowerCase().startsWith("core.hookspath"),
  );
  return (
    hooksOff || call.args.slice(at + 1).some((a) => a === "--no-verify" || /^-[a-zA-Z]*n[a-zA-Z]*$/.test(a))
  );
}

function commandText(call: GitCall): string {
  return call.text ?? ["git", ...call.args].join(" ");
}

export function guardGitCalls(ctx: HookCtx, calls: readonly GitCall[]): GitGuardResult {
  if (calls.length === 0) return { findings: [], unknown: [] };
  const cwd = ctx.input.cwd ?? ctx.root.root;
  const judged: JudgedGitCall[] = [];
  const unknown: string[] = [];
  // What an earlier `git add` of the same command line stages, for a later commit that skips its hook.
  let staged: string[] = [];
  // The repository's aliases are asked of git once for the whole tool call.
  const aliases = aliasReader();
  let known: Set<string> | null = null;
  const worktrees = () => {
    known ??= ownedWorktrees(ctx.db);
    return known;
  };
  for (const call of calls) {
    const adds = stagingOf(call);
    if (adds) {
      const impact = gitImpact(adds, cwd, aliases);
      const top = impact.repoTop;
      if (top !== null) staged = [...staged, ...impact.atRisk.map((p) => join(top, p))];
      continue;
    }
    const impact = gitImpact(call, cwd, aliases);
    if (impact.unknown !== null || impact.repoTop === null) {
      unknown.push(`${commandText(call)}: ${impact.unknown ?? "not in a repository"}`);
      continue;
    }
    const top = impact.repoTop;
    // `git -C ../wt …` works in another worktree: judged against the sessions working there.
    if (isOtherWorktree(ctx, top, worktrees)) {
      judged.push({
        command: commandText(call),
        atRisk: impact.atRisk,
        committed: impact.committed,
        worktree: top,
      });
      continue;
    }
    const key = (p: string) => relativeKey(ctx.root.root, join(top, p));
    judged.push({
      command: commandText(call),
      atRisk: impact.atRisk.map(key),
      committed: [
        ...impact.committed.map(key),
        ...(skipsCommitHook(call) ? staged.map((p) => relativeKey(ctx.root.root, p)) : []),
      ],
    });
  }
  if (judged.every((j) => j.atRisk.length === 0 && j.committed.length === 0))
    return { findings: [], unknown };
  const self = selfSession(ctx);
  const query = (worktree: string) =>
    peerOwned(ctx.db, {
      worktree,
      self: self?.id ?? "",
      group: self ? groupOf(ctx.db, self) : "",
      now: ctx.now,
      freshnessSeconds: ctx.config.freshnessSeconds,
    });
  const elsewhere = new Map(
    judged.flatMap((j) => (j.worktree === undefined ? [] : [[j.worktree, query(j.worktree)] as const])),
  );
  return { findings: judgeGitCalls(judged, query(ctx.root.root), elsewhere), unknown };
}

/**
 * A working tree other than the caller's own where sessions work (a linked worktree, or the main
 * one): its claims are keyed by its own top. A submodule's paths stay keyed by the caller's root.
 */
function isOtherWorktree(ctx: HookCtx, top: string, known: () => Set<string>): boolean {
  const own = ctx.root.repo?.top ?? ctx.root.root;
  return top !== own && top !== ctx.root.root && known().has(top);
}
