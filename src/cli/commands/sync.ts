import { Command } from "commander";
import { printed } from "../../core/printed.js";
import { syncWithEngine, usesNats } from "../../remote/engine.js";
import { keepPresence, takeKeeper } from "../../remote/nats-keeper.js";
import { markSyncStart, takeSyncLock } from "../../remote/sync-lock.js";
import { sessionViews } from "../../sessions/view.js";
import type { Db } from "../../store/db.js";
import { findProject, type Io, openProjectDb, type Project } from "../context.js";
import { formatSync } from "../format/sync.js";
import { provenPrinter } from "../printer.js";

function liveHere(db: Db, project: Project): boolean {
  return sessionViews(db, project.loaded.config.freshnessSeconds, Date.now()).some((s) => s.live && !s.ended);
}

/**
 * Over NATS the first background round of a checkout with live sessions stays on as its presence
 * keeper (src/remote/nats-keeper.ts, decision 0063), a round every third of the time to live.
 */
async function keep(project: Project, top: string, doctor: string): Promise<void> {
  // No live session here: nothing to keep alive, and no process to leave behind.
  const db = openProjectDb(project, { create: false });
  const live = db !== null && liveHere(db, project);
  db?.close();
  if (!live) return;
  const release = takeKeeper(project.stateDir);
  if (!release) return;
  const round = async (): Promise<boolean | null> => {
    const lock = takeSyncLock(project.stateDir, Date.now());
    if (typeof lock !== "function") return null;
    const db = openProjectDb(project, { create: true });
    try {
      if (!db || !liveHere(db, project)) return false;
      markSyncStart(project.stateDir, Date.now());
      await syncWithEngine(db, {
        root: project.resolved.root,
        top,
        stateDir: project.stateDir,
        config: project.loaded.config,
        doctor,
      });
      return liveHere(db, project);
    } finally {
      db?.close();
      lock();
    }
  };
  try {
    await keepPresence((project.loaded.config.natsPresenceTtlSeconds * 1000) / 3, round);
  } finally {
    release();
  }
}

/** A person's round waits for a background one (a hook may have just started it) up to its timeout. */
function lockWaitMs(project: Project): number {
  return (project.loaded.config.remoteTimeoutSeconds * 2 + 5) * 1000;
}

async function waitForLock(stateDir: string, waitMs: number): Promise<ReturnType<typeof takeSyncLock>> {
  const until = Date.now() + waitMs;
  for (;;) {
    const lock = takeSyncLock(stateDir, Date.now());
    if (typeof lock === "function" || Date.now() >= until) return lock;
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface SyncOptions {
  json?: boolean;
  prune?: boolean;
  background?: boolean;
  root?: string;
}

export function syncCommand(io: Io): Command {
  return new Command("sync")
    .description(
      "Share presence with other clones (the Git remote, or NATS with remote.engine nats): one round, now",
    )
    .option("--json", "print the round as JSON")
    .option("--prune", "also delete the presence of checkouts silent longer than remote.pruneDays")
    .option("--background", "the round hooks start (not for people): quiet")
    .addHelpText(
      "after",
      `
Fetches every checkout's presence (refs/tandem/presence/*) and the leases (refs/tandem/lease/*)
from the remote, stores them for hooks and status, and publishes this checkout's presence when it
changed or is older than remote.intervalSeconds. Hooks run the same round in the background.
With remote.engine "nats" the round reads only what changed in the NATS buckets instead, and a
background round stays on as the checkout's presence keeper while sessions live (docs/remote.md).
See docs/decisions/0014-presence-over-git-remote.md and 0063-nats-engine.md.
`,
    )
    .action(async (_o: SyncOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<SyncOptions>();
      const project = findProject(io, opts.root);
      const top = project.resolved.repo?.top ?? project.resolved.root;
      const lock = await waitForLock(project.stateDir, opts.background ? 0 : lockWaitMs(project));
      if (typeof lock !== "function") {
        if (opts.background) return;
        io.err(`tandem sync: another round runs (pid ${lock.heldBy}); wait for it and run again.\n`);
        io.exitCode = 1;
        return;
      }
      const db = openProjectDb(project, { create: true });
      const doctor = printed(provenPrinter(db, io, project), "doctor");
      try {
        markSyncStart(project.stateDir, Date.now());
        const r = await syncWithEngine(db!, {
          root: project.resolved.root,
          top,
          stateDir: project.stateDir,
          config: project.loaded.config,
          prune: opts.prune === true,
          doctor,
        });
        if (!opts.background) {
          io.out(opts.json ? `${JSON.stringify(r, null, 2)}\n` : formatSync(r, Date.now()));
          if (!r.ok) io.exitCode = 1;
        }
      } finally {
        db?.close();
        lock();
      }
      if (opts.background && usesNats(project.loaded.config)) await keep(project, top, doctor);
    });
}
