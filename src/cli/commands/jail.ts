import { statSync } from "node:fs";
import { Command } from "commander";
import { jailCandidates, type MountPlan, mountPlan } from "../../core/jail/plan.js";
import { seatbeltProfile } from "../../core/jail/seatbelt.js";
import { printed, spanned } from "../../core/printed.js";
import { UsageError } from "../../errors.js";
import { physical } from "../../jail/facts.js";
import { boundFiles, sessionPlan } from "../../jail/plan.js";
import { runJailed } from "../../jail/run.js";
import { findProject, type Io, openProjectDb, type Project, releaseProjectDb } from "../context.js";
import { commandPrinter } from "../printer.js";
import { ownSession } from "../session-opts.js";

interface JailOptions {
  session?: string;
  plan?: boolean;
  seatbelt?: boolean;
  root?: string;
}

/** The mount plan for the caller (or `--session`), read from the store and the disk. */
export function planFor(io: Io, project: Project, session: string | undefined): MountPlan {
  const db = openProjectDb(project, { create: false }, io);
  if (!db) {
    const candidates = jailCandidates({
      root: project.resolved.root,
      peers: [],
      stateDir: physical(project.stateDir),
      commonDir: project.resolved.repo ? physical(project.resolved.repo.commonDir) : null,
      install: [physical(process.execPath)],
      wiring: [],
    });
    const real = new Map(candidates.map((c) => [c.path, realOrNull(c.path)]));
    return mountPlan(candidates, real, project.resolved.root);
  }
  try {
    const self = ownSession(db, io, project, session, null)?.session ?? null;
    return sessionPlan({
      db,
      resolved: project.resolved,
      stateDir: project.stateDir,
      self,
      freshnessSeconds: project.loaded.config.freshnessSeconds,
      now: Date.now(),
      env: io.env,
    });
  } finally {
    releaseProjectDb(io, db);
  }
}

function realOrNull(path: string): string | null {
  const real = physical(path);
  return statSync(real, { throwIfNoEntry: false }) ? real : null;
}

function planText(plan: MountPlan): string {
  const lines = plan.binds.map((b) => `read-only ${JSON.stringify(b.path)}: ${b.reasons.join("; ")}`);
  for (const s of plan.skipped) lines.push(`not bound ${JSON.stringify(s.path)} (${s.reason}): ${s.why}`);
  return `${lines.join("\n")}\n`;
}

export function jailCommand(io: Io): Command {
  return new Command("jail")
    .description(
      "Run a command where the kernel refuses writes to live peers' uncommitted files, Tandem's state, its installation and the hook wiring (Linux)",
    )
    .argument("[command...]", "the command and its arguments, after --")
    .option("--session <id>", "the session the command runs for (default: the calling agent's)")
    .option("--plan", "print what would be read-only, and why, instead of running anything")
    .option(
      "--seatbelt",
      "print a macOS seatbelt profile (sandbox-exec -f) denying writes to what does not move: the state, the installation, the wiring (untested on macOS)",
    )
    .addHelpText(
      "after",
      "\nThe command's output and exit code pass through; 125 means the jail could not be set up and the command did not run.\n\nExamples:\n  tandem jail -- npm test\n  tandem jail --plan\n",
    )
    .action(async (command: string[], _o: JailOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<JailOptions>();
      const project = findProject(io, opts.root);
      const plan = planFor(io, project, opts.session);
      if (opts.plan) {
        io.out(planText(plan));
        return;
      }
      if (opts.seatbelt) {
        const dir = (p: string) => statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
        const paths = plan.binds.map((b) => ({ path: b.path, dir: dir(b.path), reasons: b.reasons }));
        io.out(seatbeltProfile(paths).trimEnd());
        return;
      }
      const p = commandPrinter(io, project);
      if (command.length === 0)
        throw new UsageError(`name the command to run after --: ${spanned(p, "jail", "--", "npm", "test")}`);
      const paths = plan.binds.map((b) => b.path);
      const doctor = printed(p, "doctor");
      const run = runJailed(paths, boundFiles(plan), command, { cwd: io.cwd, env: process.env, doctor });
      io.exitCode = await run.code;
    });
}
