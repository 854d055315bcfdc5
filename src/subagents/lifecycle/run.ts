import { CLIENTS } from "../../clients/index.js";
import { spanned } from "../../core/printed.js";
import { childTrustEnv } from "../../facts/gemini-trust.js";
import { procInfo } from "../../sessions/proc.js";
import { append, appendOne, write } from "../../store/ledger/append.js";
import { applySub } from "../apply/apply.js";
import { type ApplyOutcome, outcome } from "../apply/types.js";
import { recordCapture } from "../capture/record.js";
import type { SubCtx } from "../shared/ctx.js";
import { type CaptureRecord, type SubRecord, subById } from "../shared/records.js";
import { childEnv } from "./child-env.js";
import { type CleanupResult, removeSub } from "./cleanup.js";
import { type CreateRequest, createSub } from "./create.js";
import { launchLine } from "./launch.js";
import type { Progress } from "./progress.js";
import { subRef } from "./report.js";
import { type ChildExit, runChild } from "./spawn-child.js";

export interface RunRequest extends CreateRequest {
  env: Readonly<Record<string, string | undefined>>;
  timeoutMs: number | null;
  apply: boolean;
  /** With apply: accept changes to Tandem's wiring (`--allow-config`). */
  allowConfig: boolean;
  rm: boolean;
  progress: ((label: string) => Progress) | null;
}

export interface RunResult {
  sub: SubRecord;
  capture: CaptureRecord;
  applied: ApplyOutcome | null;
  removal: CleanupResult | null;
  /** Exit 0: the child exited 0 and everything was captured (and applied, with --apply). */
  ok: boolean;
}

function recordExit(ctx: SubCtx, sub: SubRecord, exit: ChildExit): void {
  write(ctx.db, (tx) => {
    append(tx, {
      kind: "subagent.exited",
      session: sub.childSession ?? ctx.session,
      data: { id: sub.id, ...exit },
    });
    if (sub.childSession) {
      const reason = exit.reason === "exited" ? `exit ${exit.exitCode}` : exit.reason;
      append(tx, { kind: "session.ended", session: sub.childSession, data: { reason } });
    }
  });
}

/** Applies into the caller's checkout only a clean result: a failed or partly captured child is left for a human. */
function autoApply(
  ctx: SubCtx,
  sub: SubRecord,
  capture: CaptureRecord,
  exit: ChildExit,
  allowConfig: boolean,
): ApplyOutcome {
  const req = {
    sub,
    target: sub.origin,
    dryRun: false,
    expectedHead: null,
    only: null,
    ackUncaptured: false,
    ackPartial: false,
    allowConfig,
  };
  if (exit.reason !== "exited" || exit.exitCode !== 0) {
    return outcome(req, capture.id, {
      outcome: "refused",
      message: `not applied because the child did not exit 0; review it, then run ${spanned(ctx.printer, "sub", "apply", subRef(sub))}.`,
    });
  }
  return applySub(ctx, req);
}

/**
 * `sub run` (docs/product.md §7.1): worktree and branch at the base, the child headless
 * with its output in the log, then capture whatever happened to the child,
 * then (with --apply) apply and (with --rm) remove when that is allowed.
 */
export async function runSub(ctx: SubCtx, req: RunRequest): Promise<RunResult> {
  const line = launchLine(req.client, req.args, ctx.config.clients[req.client], ctx.printer);
  const created = createSub(ctx, req);
  const progress = req.progress?.(`${created.id} running in ${created.worktree}`) ?? null;
  let exit: ChildExit;
  try {
    exit = await runChild({
      command: line.command,
      args: line.args,
      cwd: created.worktree,
      env: childEnv(req.env, {
        subId: created.id,
        parentSession: ctx.session,
        childSession: created.childSession,
        // PWD: the child works in its worktree, and a client may take its project from $PWD
        // (opencode does, docs/clients.md §16.4); the caller's would name the parent's checkout.
        // A client that trusts folders one by one must trust the child's worktree too.
        extra: {
          PWD: created.worktree,
          ...(req.client !== "exec" && CLIENTS[req.client].trust === "trusted-folders"
            ? childTrustEnv(ctx.root, req.env)
            : {}),
        },
        launchEnv: req.client === "exec" ? {} : (CLIENTS[req.client].subagent.env ?? {}),
      }),
      logFile: created.log,
      timeoutMs: req.timeoutMs,
      onSpawn: (pid) =>
        appendOne(ctx.db, {
          kind: "subagent.spawned",
          session: ctx.session,
          data: { id: created.id, pid, pidStart: procInfo(pid)?.start ?? null },
        }),
      live: progress ? (chunk) => progress.output(chunk) : null,
    });
  } finally {
    progress?.stop();
  }
  recordExit(ctx, created, exit);
  const capture = await recordCapture(ctx, subById(ctx.db, created.id)!);
  const applied = req.apply
    ? autoApply(ctx, subById(ctx.db, created.id)!, capture, exit, req.allowConfig)
    : null;
  const removal = req.rm && applied?.ok ? await removeSub(ctx, subById(ctx.db, created.id)!) : null;
  const ok =
    exit.reason === "exited" &&
    exit.exitCode === 0 &&
    capture.ok &&
    capture.uncaptured.length === 0 &&
    (applied === null || applied.ok);
  return { sub: subById(ctx.db, created.id)!, capture, applied, removal, ok };
}
