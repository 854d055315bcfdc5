import { resolve } from "node:path";
import { UsageError } from "../../errors.js";
import { type Resolved, resolveCaller } from "../../sessions/resolve.js";
import type { Db } from "../../store/db.js";
import { makeSubCtx, type SubCtx } from "../../subagents/shared/ctx.js";
import { worktreeTop } from "../../subagents/shared/git.js";
import { findProject, type Io, openProjectDb, type Project } from "../context.js";
import { callerPrinter, printersOf } from "../printer.js";

export interface CommonOptions {
  session?: string;
  json?: boolean;
  root?: string;
}

/**
 * The session sub-agent events are attributed to. `--session` must resolve
 * (exit 2 otherwise); without it the caller is found as usual, and a human at
 * a terminal with no agent session is fine: the events then name no session.
 */
function attribution(db: Db, io: Io, project: Project, flag: string | undefined): Resolved | null {
  // Sub-agent commands create, apply and discard for the session: naming another one is refused.
  const req = {
    flag,
    env: io.env,
    pid: io.pid,
    freshnessSeconds: project.loaded.config.freshnessSeconds,
    allowSingleLive: !flag,
    command: "sub",
    printerFor: printersOf(project),
  };
  if (flag) return resolveCaller(db, req)!;
  try {
    return resolveCaller(db, { ...req, allowSingleLive: false });
  } catch (err) {
    if (err instanceof UsageError) return null;
    throw err;
  }
}

/** Opens the project store and builds the context every `sub` command runs with. */
export async function withSubCtx<T>(
  io: Io,
  opts: CommonOptions,
  fn: (ctx: SubCtx) => T | Promise<T>,
): Promise<T> {
  const project = findProject(io, opts.root);
  const db = openProjectDb(project, { create: true })!;
  try {
    const { config } = project.loaded;
    const caller = attribution(db, io, project, opts.session);
    const printer = callerPrinter(project, caller);
    const session = caller?.session.id ?? null;
    return await fn(makeSubCtx(db, project.stateDir, config, project.resolved.root, session, printer));
  } finally {
    db.close();
  }
}

/** The worktree a command acts on: `--target DIR`, else the one containing the current directory. */
export function targetOf(io: Io, dir: string | undefined): string {
  const top = worktreeTop(resolve(io.cwd, dir ?? "."));
  if (!top) {
    throw new UsageError(
      dir
        ? `--target ${dir} is not inside a git worktree.`
        : `${io.cwd} is not inside a git worktree; pass --target DIR.`,
    );
  }
  return top;
}

export function printJson(io: Io, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}
