import { join } from "node:path";
import { Command } from "commander";
import { type LandResult, landed } from "../../core/land/result.js";
import { type Printer, spanned } from "../../core/printed.js";
import { landedTrailer } from "../../core/provenance/trailers.js";
import { judgeLandCheck } from "../../hooks/land-check-guard.js";
import { pathHolders } from "../../land/holders.js";
import { land } from "../../land/land.js";
import { adoptWaiters, answerWaiters, awaitTurn } from "../../land/queue.js";
import { outcomeEvent, record } from "../../land/record.js";
import type { Db } from "../../store/db.js";
import { sessionById } from "../../store/sessions/rows.js";
import { findProject, type Io, openProjectDb, type Project, releaseProjectDb } from "../context.js";
import { formatLand } from "../format/land.js";
import { callerPrinter } from "../printer.js";
import { ownSession } from "../session-opts.js";

interface LandOptions {
  json?: boolean;
  wait?: string;
  session?: string;
  root?: string;
}

export function landCommand(io: Io): Command {
  return new Command("land")
    .description("Publish this branch's commits: fetch, rebase privately if the remote moved, push")
    .option("--json", "print the result as JSON")
    .option("--wait <seconds>", "how long to queue behind another landing of this checkout", "300")
    .option("--session <id>", "the session landing (default: the calling agent's, if any)")
    .addHelpText(
      "after",
      `
Fetches the branch's upstream. Local commits on top of it are pushed; if the remote moved, they
are rebased onto it in a private worktree, the shared checkout moves to the result (only files the
move changes are rewritten; other uncommitted files stay as they are) and the result is pushed with
a lease on what was fetched. Refuses, changing nothing, when the move would touch a file a session
holds or has uncommitted, or when the rebase conflicts. With land.check set (.tandem/config.jsonc),
that command runs on the result first; a failing check pushes nothing. Landings queued behind a
running one are landed together by the next. See docs/land.md.

Examples:
  tandem land            # what an agent runs when its work is committed
  tandem land --json     # the outcome as data: pushed, refused (holders, paths), conflicted…
`,
    )
    .action(async (_o: LandOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<LandOptions>();
      const project = findProject(io, opts.root);
      const db = openProjectDb(project, { create: false }, io);
      try {
        await run(io, project, db, opts);
      } finally {
        if (db) releaseProjectDb(io, db);
      }
    });
}

async function run(io: Io, project: Project, db: Db | null, opts: LandOptions): Promise<void> {
  const top = project.resolved.repo?.top ?? project.resolved.root;
  const caller = db ? ownSession(db, io, project, opts.session, "land") : null;
  const self = caller?.session.id ?? null;
  const printer = callerPrinter(project, caller);
  const turn = await awaitTurn(
    project.stateDir,
    join(project.stateDir, "land.lock"),
    Number(opts.wait ?? 300) * 1000,
  );
  if (turn.kind === "timeout") {
    io.err(
      `tandem land: another landing of this checkout runs (pid ${turn.heldBy}); run ${spanned(printer, "land")} again once it ends.\n`,
    );
    io.exitCode = 1;
    return;
  }
  if (turn.kind === "answered") return report(io, opts, turn.result, printer);
  const problems: (string | null)[] = [];
  try {
    const { config } = project.loaded;
    // Queued landings registered by now have their commits on the branch: this landing is theirs too.
    const waiters = adoptWaiters(project.stateDir);
    const command = config.landCheck;
    const check = command
      ? {
          command,
          timeoutMs: config.landCheckTimeoutSeconds * 1000,
          top,
          judge: (dir: string) =>
            db
              ? judgeLandCheck(
                  {
                    db,
                    root: project.resolved.root,
                    top,
                    self: self ? (sessionById(db, self) ?? null) : null,
                    freshnessSeconds: config.freshnessSeconds,
                    env: io.env,
                  },
                  command,
                  dir,
                )
              : Promise.resolve(null),
        }
      : null;
    const own = await land({
      top,
      stateDir: project.stateDir,
      timeoutMs: config.remoteTimeoutSeconds * 1000,
      check,
      trailers: landedTrailer(caller?.session ?? null),
      holders: () =>
        db
          ? pathHolders(db, {
              top,
              root: project.resolved.root,
              self,
              now: Date.now(),
              freshnessSeconds: config.freshnessSeconds,
            })
          : new Map(),
      started: (u, local, upstream) =>
        problems.push(
          record(db, { kind: "land.started", session: self, data: { branch: u.branch, local, upstream } }),
        ),
    });
    const result = waiters.length ? { ...own, batch: { leader: process.pid, waiters: waiters.length } } : own;
    problems.push(record(db, outcomeEvent(result, self)));
    answerWaiters(project.stateDir, waiters, result);
    report(io, opts, result, printer);
  } finally {
    turn.release();
  }
  for (const p of problems) if (p) io.err(`tandem land: warning: the landing was not recorded: ${p}\n`);
}

function report(io: Io, opts: LandOptions, result: LandResult, p: Printer): void {
  io.out(opts.json ? `${JSON.stringify(result, null, 2)}\n` : formatLand(result, p));
  if (!landed(result)) io.exitCode = 1;
}
