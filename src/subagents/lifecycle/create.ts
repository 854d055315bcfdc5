import { mkdirSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { digest } from "../../core/digest.js";
import { TandemError, UsageError } from "../../errors.js";
import { git } from "../../git/run.js";
import { procInfo } from "../../sessions/proc.js";
import { newSessionId } from "../../sessions/register.js";
import type { WriteTx } from "../../store/db.js";
import { append, write } from "../../store/ledger/append.js";
import { pickSessionName } from "../../store/sessions/names.js";
import type { SubCtx } from "../shared/ctx.js";
import { resolveCommit, worktreeTop } from "../shared/git.js";
import { newSubId, subBranch } from "../shared/ids.js";
import { nameTaken, type SubRecord, subById } from "../shared/records.js";
import type { SubClient } from "./launch.js";

export interface CreateRequest {
  client: SubClient;
  name: string | null;
  baseRef: string | null;
  args: string[];
  /** Where `sub run` was started; its worktree is the origin (and `--apply` target). */
  cwd: string;
}

/**
 * Where child worktrees go by default: the user's state directory, one folder
 * per repository. Not inside `.git/`: Claude Code treats every path under a
 * `.git` directory as sensitive and refuses to edit it without a human, which
 * left real Claude sub-agents unable to write a file (found by the e2e tier).
 */
export function defaultWorktreeRoot(
  stateDir: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  const base = stateHome(env);
  const repo = basename(dirname(dirname(stateDir))) || "repo";
  return join(base, "tandem", "worktrees", `${repo}-${digest(stateDir).slice(-8)}`);
}

/** The user's state home (XDG), under which default worktree roots live. */
export function stateHome(env: Readonly<Record<string, string | undefined>>): string {
  return env.XDG_STATE_HOME || join(env.HOME || homedir(), ".local", "state");
}

function worktreeRootOf(ctx: SubCtx): string {
  const configured = ctx.config.worktreeRoot;
  return configured ? resolve(ctx.root, configured) : defaultWorktreeRoot(ctx.stateDir, process.env);
}

function checkName(ctx: SubCtx, name: string | null): void {
  if (name === null) return;
  if (name.trim() === "" || /[\0\n]/.test(name))
    throw new UsageError("--name must be a non-empty single line.");
  if (nameTaken(ctx.db, name)) {
    throw new UsageError(`a sub-agent named ${JSON.stringify(name)} already exists; pick another --name.`);
  }
}

/**
 * Creates the child's worktree on `tandem/sub/<id>` at the exact base commit and
 * records it (docs/product.md §7.1). An exec child gets its session recorded here, with
 * `sub run` as its agent process; a client child's own hooks register it.
 */
export function createSub(ctx: SubCtx, req: CreateRequest): SubRecord {
  checkName(ctx, req.name);
  const origin = worktreeTop(req.cwd);
  if (!origin) throw new TandemError(`${req.cwd} is not inside a git worktree; run sub run inside one.`, 2);
  const ref = req.baseRef ?? "HEAD";
  const base = resolveCommit(origin, ref);
  if (!base) {
    throw new UsageError(
      req.baseRef ? `--base ${req.baseRef} is not a commit.` : `${origin} has no commit yet; commit first.`,
    );
  }
  const id = newSubId();
  const branch = subBranch(id);
  const dir = join(worktreeRootOf(ctx), id);
  mkdirSync(dirname(dir), { recursive: true });
  git(origin, ["worktree", "add", "-q", "-b", branch, dir, base]);
  const worktree = realpathSync.native(dir);
  const log = join(ctx.stateDir, "subagents", `${id}.log`);
  mkdirSync(dirname(log), { recursive: true });
  const childSession = req.client === "exec" ? newSessionId() : null;
  write(ctx.db, (tx) => {
    append(tx, {
      kind: "subagent.created",
      session: ctx.session,
      data: {
        id,
        name: req.name,
        client: req.client,
        parentSession: ctx.session,
        childSession,
        origin,
        worktree,
        branch,
        base,
        baseRef: ref,
        args: req.args,
        log,
        runnerPid: process.pid,
        runnerStart: procInfo(process.pid)?.start ?? null,
      },
    });
    if (childSession) recordExecSession(ctx, tx, id, childSession, worktree);
  });
  return subById(ctx.db, id)!;
}

function recordExecSession(ctx: SubCtx, tx: WriteTx, id: string, session: string, worktree: string): void {
  append(tx, {
    kind: "session.started",
    session,
    data: {
      client: "exec",
      nativeId: id,
      name: pickSessionName(ctx.db, id),
      kind: "subagent",
      parentId: ctx.session,
      // `sub run` lives exactly as long as the child: it is the session's process.
      agentPid: process.pid,
      agentPidStart: procInfo(process.pid)?.start ?? null,
      cwd: worktree,
      source: "sub run",
    },
  });
}
