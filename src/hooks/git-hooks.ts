import { join, resolve } from "node:path";
import { groupOf, holderOf } from "../claims/holders.js";
import { CLIENTS } from "../clients/index.js";
import type { Rendered as HookResult } from "../clients/types.js";
import { enclosingWorkTrees } from "../config/git-discovery.js";
import { loadConfig } from "../config/load.js";
import { resolveRoot, stateDirOf } from "../config/root.js";
import { overlaps } from "../core/claims/decide.js";
import { GIT_HOOK_NAMES } from "../core/git/hook-names.js";
import { agentEnvironment, type Committer, type HeldFile, judgeCommit } from "../core/guards/commit-guard.js";
import { sessionTrailers, trailersFor } from "../core/provenance/trailers.js";
import type { StoreNotice } from "../core/store/notice.js";
import { errorMessage } from "../errors.js";
import { git, splitZ } from "../git/run.js";
import { dirtyPaths } from "../git/status.js";
import { atPersonsTerminal, type Resolved, resolveCaller } from "../sessions/resolve.js";
import { allClaims, type ClaimRow } from "../store/claims/rows.js";
import { type Db, dbFile, openDb } from "../store/db.js";
import { storeErrorOf } from "../store/failure.js";
import { recordStoreFailure } from "../store/failure-log.js";
import { append, write } from "../store/ledger/append.js";
import { sessionById } from "../store/sessions/rows.js";
import { verifyGateTables } from "../store/trust.js";
import { testNow } from "../testing/clock.js";
import { printerOf } from "../wiring/agent-shell.js";
import { holderDone, judgeByLines } from "./commit-lines.js";
import { addTrailers, stagedAuthors } from "./commit-trailers.js";
import type { HookRequest } from "./context.js";

const CLIENT_SESSION_VARS = Object.values(CLIENTS).flatMap((c) => c.sessionEnv);
const OK: HookResult = { exitCode: 0, stdout: "", stderr: "" };
type Env = HookRequest["env"];

interface GitHookCtx {
  req: HookRequest;
  /** Tandem's root, whose recorded launcher spells printed commands. */
  root: string;
  repoTop: string;
  stateDir: string;
  db: Db;
  freshness: number;
  now: number;
}

interface Located {
  root: string;
  repoTop: string;
  stateDir: string;
  freshness: number;
  lockSeconds: number;
}

function locate(req: HookRequest): Located | null {
  const repoTop = enclosingWorkTrees(req.cwd)[0]?.top;
  if (!repoTop) return null;
  const root = resolveRoot({ cwd: req.cwd, env: req.env });
  const { config } = loadConfig(root.root, req.env);
  const stateDir = stateDirOf(root);
  return {
    root: root.root,
    repoTop,
    stateDir,
    freshness: config.freshnessSeconds,
    lockSeconds: config.storeLockSeconds,
  };
}

function open(req: HookRequest, at: Located): GitHookCtx {
  const db = openDb(at.stateDir, { lockSeconds: at.lockSeconds });
  const now = req.now ?? testNow(req.env) ?? Date.now();
  return { req, root: at.root, repoTop: at.repoTop, stateDir: at.stateDir, db, freshness: at.freshness, now };
}

const abs = (c: ClaimRow) => join(c.worktree, c.path);

/** Claims whose files lie in this repository, keyed by their path relative to its top. */
function claimsInRepo(ctx: GitHookCtx): Map<string, ClaimRow[]> {
  const out = new Map<string, ClaimRow[]>();
  for (const c of allClaims(ctx.db)) {
    const a = abs(c);
    if (a !== ctx.repoTop && !a.startsWith(`${ctx.repoTop}/`)) continue;
    const rel = a === ctx.repoTop ? "." : a.slice(ctx.repoTop.length + 1);
    out.set(rel, [...(out.get(rel) ?? []), c]);
  }
  return out;
}

/** The agent session whose command ran git, or null for a person (no agent among the callers). */
function gitCaller(ctx: GitHookCtx) {
  return (
    resolveCaller(ctx.db, {
      env: ctx.req.env,
      pid: ctx.req.pid,
      freshnessSeconds: ctx.freshness,
      allowSingleLive: false,
      printerFor: (reader) => printerOf(ctx.root, ctx.stateDir, reader),
    })?.session ?? null
  );
}

/**
 * Whether a claim may end because its file is clean: only when the commit or
 * checkout came from its holder's group, from a person, or the holder is no
 * longer live. A live peer's checkout over the file is the safety net's business
 * (recorded as a clobber after the command), never a release in the peer's favour.
 */
function releasable(ctx: GitHookCtx, claim: ClaimRow, callerGroup: string | null): boolean {
  if (callerGroup === null) return true;
  const holder = sessionById(ctx.db, claim.session_id);
  if (!holder) return true;
  const h = holderOf(ctx.db, holder, ctx.now, ctx.freshness);
  return !h.live || h.group === callerGroup;
}

/** post-commit / post-checkout: release the claims whose file is clean now (docs/product.md §4.4). */
function releaseClean(ctx: GitHookCtx, reason: "commit" | "checkout"): void {
  const inRepo = claimsInRepo(ctx);
  const paths = [...inRepo.keys()].filter((p) => p !== ".");
  if (paths.length === 0) return;
  const dirty = [...dirtyPaths(ctx.repoTop, paths)];
  const isClean = (p: string) => !dirty.some((d) => d === p || d.startsWith(`${p}/`));
  // A file still dirty with others' hunks is done for a holder whose own hunks the commit took.
  const lines = { ...ctx, index: undefined };
  const done = (p: string) =>
    reason === "commit" && (inRepo.get(p) ?? []).every((c) => holderDone(lines, p, c.session_id));
  const clean = paths.filter((p) => isClean(p) || done(p));
  const caller = gitCaller(ctx);
  const callerGroup = caller ? groupOf(ctx.db, caller) : null;
  write(
    ctx.db,
    (tx) => {
      for (const p of clean) {
        for (const c of inRepo.get(p) ?? []) {
          if (!releasable(ctx, c, callerGroup)) continue;
          append(tx, {
            kind: "claim.released",
            session: c.session_id,
            ts: ctx.now,
            data: { worktree: c.worktree, path: c.path, reason },
          });
        }
      }
    },
    "gating",
  );
}

// A `git commit -a` or `git commit <path>` stages into a temporary index that git names here.
const indexOf = (env: Env) => (env.GIT_INDEX_FILE ? { GIT_INDEX_FILE: env.GIT_INDEX_FILE } : undefined);

function stagedPaths(ctx: GitHookCtx, env: Env): string[] {
  const index = indexOf(env);
  const out = git(
    ctx.repoTop,
    ["diff", "--cached", "--name-only", "-z", "--no-renames"],
    index ? { env: index } : {},
  );
  return splitZ(out).map((p) => join(ctx.repoTop, p));
}

function contamination(ctx: GitHookCtx, all: string[], committerGroup: string | null): HeldFile[] {
  // A file shared by lines is judged by its hunks: the peer's lines refuse, not the peer's claim.
  const rel = all.map((p) => p.slice(ctx.repoTop.length + 1));
  const byLines = judgeByLines({ ...ctx, index: indexOf(ctx.req.env) }, rel, committerGroup);
  const found: HeldFile[] = [...byLines.values()].flat();
  const staged = all.filter((_, i) => !byLines.has(rel[i]!));
  for (const c of allClaims(ctx.db)) {
    const s = sessionById(ctx.db, c.session_id);
    if (!s) continue;
    const h = holderOf(ctx.db, s, ctx.now, ctx.freshness);
    if (!h.live || (committerGroup !== null && h.group === committerGroup)) continue;
    for (const p of staged) {
      if (overlaps({ worktree: "", path: p }, { worktree: "", path: abs(c) }))
        found.push({ path: p.slice(ctx.repoTop.length + 1), holder: h.name });
    }
  }
  return found;
}

/** Who commits, as the verdict reads it; the terminal is looked at only for a session named by env. */
function committerOf(ctx: GitHookCtx, resolved: Resolved | null): Committer {
  if (resolved === null) return null;
  if (resolved.via === "process") return { via: "process" };
  return { via: "named", atPersonsTerminal: atPersonsTerminal(ctx.db, ctx.req.pid) };
}

/** pre-commit: refuse an agent's commit of files another live session holds (docs/product.md §4.4). */
function guardCommit(ctx: GitHookCtx): HookResult {
  verifyGateTables(ctx.db, dbFile(ctx.stateDir));
  const committer = resolveCaller(ctx.db, {
    env: ctx.req.env,
    pid: ctx.req.pid,
    freshnessSeconds: ctx.freshness,
    allowSingleLive: false,
    printerFor: (reader) => printerOf(ctx.root, ctx.stateDir, reader),
  });
  const group = committer ? groupOf(ctx.db, committer.session) : null;
  const found = contamination(ctx, stagedPaths(ctx, ctx.req.env), group);
  const bypass = ctx.req.env.TANDEM_BYPASS === "1";
  const printer = printerOf(ctx.repoTop, ctx.stateDir, committer ? "agent" : "person");
  const verdict =
    found.length === 0 ? null : judgeCommit(found, committerOf(ctx, committer), bypass, printer);
  if (verdict === null) return OK;
  write(
    ctx.db,
    (tx) =>
      append(tx, {
        kind: "commit.guarded",
        session: committer?.session.id ?? null,
        ts: ctx.now,
        data: {
          outcome: verdict.outcome,
          paths: found,
          ...(verdict.bypassRefused ? { bypassRefused: true } : {}),
        },
      }),
    "gating",
  );
  return { exitCode: verdict.outcome === "refused" ? 1 : 0, stdout: "", stderr: verdict.message };
}

/** prepare-commit-msg: name the sessions whose hunks the commit carries (decision 0073). */
function provenance(ctx: GitHookCtx): HookResult {
  const [, file, source] = ctx.req.args;
  if (!file || !trailersFor(source)) return OK;
  const rel = stagedPaths(ctx, ctx.req.env).map((p) => p.slice(ctx.repoTop.length + 1));
  const authors = stagedAuthors({ ...ctx, index: indexOf(ctx.req.env) }, rel);
  addTrailers(ctx.repoTop, resolve(ctx.req.cwd, file), sessionTrailers(authors));
  return OK;
}

/** What the committer reads when their commit cannot be checked: what is wrong, on its own line, and the fix. */
function storeRefusal(n: StoreNotice): string {
  return `tandem: commit refused: Tandem cannot check it against other sessions' claimed files, because its store\n  ${n.what}\nFix: ${n.fix}.\n`;
}

/**
 * A failure of the hook itself. An unusable store refuses the commit (it
 * cannot be checked for a peer's files) unless a person sets TANDEM_BYPASS=1; everything else
 * lets git go on. Either way a store failure is logged for `tandem doctor`.
 */
function failed(name: string, req: HookRequest, at: Located | null, err: unknown): HookResult {
  const store = at ? storeErrorOf(err, dbFile(at.stateDir)) : null;
  // Without the store no session can be resolved: an agent is known by its shell's variables.
  const agent = agentEnvironment(req.env, CLIENT_SESSION_VARS);
  const refuse = name === "pre-commit" && store !== null && (agent || req.env.TANDEM_BYPASS !== "1");
  if (at && store) {
    recordStoreFailure(at.stateDir, store, {
      source: `git-hook ${name}`,
      session: null,
      failed: refuse ? "closed" : "open",
    });
  }
  if (refuse && store && at) {
    const last = agent
      ? "Tell the user; only a person may commit past this check."
      : "Set TANDEM_BYPASS=1 to commit anyway (recorded).";
    // An agent's shell starts Tandem by its launcher, a person's terminal by theirs (decision 0051).
    const printer = printerOf(at.root, at.stateDir, agent ? "agent" : "person");
    return { exitCode: 1, stdout: "", stderr: `${storeRefusal(store.noticeFor(printer))}${last}\n` };
  }
  return { ...OK, stderr: `tandem: ${name} hook skipped: ${errorMessage(err)}\n` };
}

/**
 * `tandem git-hook <name>`: git hooks never break a commit or checkout because of
 * Tandem itself — only the contamination guard refuses deliberately, and
 * pre-commit refuses when the store cannot be trusted (PRODUCT §9).
 */
export async function runGitHook(req: HookRequest): Promise<HookResult> {
  const [name] = req.args;
  if (!name || !(GIT_HOOK_NAMES as readonly string[]).includes(name)) {
    return {
      exitCode: 2,
      stdout: "",
      stderr: `tandem: usage: tandem git-hook <${GIT_HOOK_NAMES.join("|")}>\n`,
    };
  }
  let at: Located | null = null;
  let ctx: GitHookCtx | null = null;
  try {
    at = locate(req);
    if (!at) return OK;
    ctx = open(req, at);
    if (name === "pre-commit") return guardCommit(ctx);
    if (name === "prepare-commit-msg") return provenance(ctx);
    releaseClean(ctx, name === "post-commit" ? "commit" : "checkout");
    return OK;
  } catch (err) {
    return failed(name, req, at, err);
  } finally {
    ctx?.db.close();
  }
}
