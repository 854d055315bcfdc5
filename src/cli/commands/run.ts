import { existsSync } from "node:fs";
import { Command } from "commander";
import { clientAlternatives, clientByName } from "../../clients/index.js";
import { UsageError } from "../../errors.js";
import { runFollowing } from "../../jail/follow.js";
import { sessionPlan } from "../../jail/plan.js";
import { tcpFile } from "../../resident/paths.js";
import { startServer } from "../../resident/start.js";
import { ancestors, processAlive } from "../../sessions/proc.js";
import { sessionViews } from "../../sessions/view.js";
import type { Db } from "../../store/db.js";
import { serverRow } from "../../store/server/row.js";
import { allSessions, type SessionRow } from "../../store/sessions/rows.js";
import { bundledEntry } from "../../version.js";
import { findProject, type Io, openProjectDb, type Project, releaseProjectDb } from "../context.js";

/** A live session whose agent or UI process descends from `child`: the jailed client's own. */
function ownOf(rows: readonly SessionRow[], live: Set<string>, child: number | null): SessionRow | null {
  if (child === null) return null;
  const descends = (pid: number | null) =>
    pid !== null && (pid === child || ancestors(pid).some((p) => p.pid === child));
  return rows.find((s) => live.has(s.id) && (descends(s.agent_pid) || descends(s.ui_pid))) ?? null;
}

/**
 * Inside the jail Tandem's state is read-only, so the client's hooks act only through the resident
 * server (decision 0071): the run starts one when none is registered alive, and again should it
 * leave (idle) while the run lasts.
 */
function keepServer(io: Io, project: Project, db: Db): boolean {
  const row = serverRow(db);
  if (row && processAlive(row.pid, row.pid_start) && existsSync(tcpFile(project.stateDir))) return true;
  const entry = bundledEntry();
  if (!entry || !project.loaded.config.serverEnabled) return true;
  startServer({
    entry,
    root: project.resolved.root,
    stateDir: project.stateDir,
    env: io.env,
    now: Date.now(),
  });
  return false;
}

/** Waits (bounded) for the server, so the client's first hook finds it; a hook that does not says what to do. */
async function serverUp(io: Io, project: Project): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const db = openProjectDb(project, { create: false }, io);
    if (!db) return;
    let up: boolean;
    try {
      up = keepServer(io, project, db);
    } finally {
      releaseProjectDb(io, db);
    }
    if (up || Date.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The read-only paths now: every live session but the client's own is a peer. */
function planNow(io: Io, project: Project, child: number | null): string[] {
  const db = openProjectDb(project, { create: false }, io);
  if (!db) return [];
  try {
    keepServer(io, project, db);
    const now = Date.now();
    const freshness = project.loaded.config.freshnessSeconds;
    const live = new Set(
      sessionViews(db, freshness, now)
        .filter((s) => s.live)
        .map((s) => s.id),
    );
    return sessionPlan({
      db,
      resolved: project.resolved,
      stateDir: project.stateDir,
      self: ownOf(allSessions(db), live, child),
      freshnessSeconds: freshness,
      now,
      env: io.env,
    }).binds.map((b) => b.path);
  } finally {
    releaseProjectDb(io, db);
  }
}

export function runCommand(io: Io): Command {
  return new Command("run")
    .description(
      "Start an agent client whose own hook cannot rewrite a command (Codex, Cursor, Gemini CLI, …) in the kernel jail, following the claims while it runs (Linux)",
    )
    .argument("<client>", "the client to start, by its Tandem name (codex, gemini-cli, …)")
    .argument("[args...]", "arguments for the client, after --")
    .addHelpText(
      "after",
      "\nLive peers' uncommitted files, Tandem's state, its installation and the hook wiring are read-only to the client and everything it starts; a claim taken or released while it runs is followed within a moment. 125 means the jail could not be set up and the client did not start.\n\nExamples:\n  tandem run codex\n  tandem run gemini-cli -- --model gemini-2.5-pro\n",
    )
    .action(async (name: string, args: string[], _o: unknown, cmd: Command) => {
      const spec = clientByName(name);
      if (!spec) throw new UsageError(`no client is called "${name}"; name one of ${clientAlternatives()}`);
      const project = findProject(io, cmd.optsWithGlobals<{ root?: string }>().root);
      const launch = project.loaded.config.clients[spec.name];
      const argv = [launch?.command ?? spec.subagent.command, ...(launch?.args ?? []), ...args];
      await serverUp(io, project);
      io.exitCode = await runFollowing({
        stateDir: project.stateDir,
        root: project.resolved.root,
        plan: (child) => planNow(io, project, child),
        argv,
        cwd: io.cwd,
        env: { ...process.env, ...io.env },
      });
    });
}
