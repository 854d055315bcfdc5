import { Command } from "commander";
import { printed } from "../../core/printed.js";
import { syncRound } from "../../remote/sync.js";
import { markSyncStart, takeSyncLock } from "../../remote/sync-lock.js";
import { findProject, type Io, openProjectDb, type Project } from "../context.js";
import { formatSync } from "../format/sync.js";
import { provenPrinter } from "../printer.js";

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
    .description("Share presence with other clones through the Git remote: one round, now")
    .option("--json", "print the round as JSON")
    .option("--prune", "also delete the presence of checkouts silent longer than remote.pruneDays")
    .option("--background", "the round hooks start (not for people): quiet")
    .addHelpText(
      "after",
      `
Fetches every checkout's presence (refs/tandem/presence/*) and the leases (refs/tandem/lease/*)
from the remote, stores them for hooks and status, and publishes this checkout's presence when it
changed or is older than remote.intervalSeconds. Hooks run the same round in the background.
See docs/decisions/0014-presence-over-git-remote.md.
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
      try {
        markSyncStart(project.stateDir, Date.now());
        const r = syncRound(db!, {
          root: project.resolved.root,
          top,
          stateDir: project.stateDir,
          config: project.loaded.config,
          prune: opts.prune === true,
          doctor: printed(provenPrinter(db, io, project), "doctor"),
        });
        if (opts.background) return;
        io.out(opts.json ? `${JSON.stringify(r, null, 2)}\n` : formatSync(r, Date.now()));
        if (!r.ok) io.exitCode = 1;
      } finally {
        db?.close();
        lock();
      }
    });
}
