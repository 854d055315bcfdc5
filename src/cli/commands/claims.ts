import { Command } from "commander";
import { holderOf } from "../../claims/holders.js";
import { PLAIN } from "../../core/printed.js";
import { leaseLine } from "../../core/remote/remote-view.js";
import { formatAge } from "../../core/sessions/liveness.js";
import { readRemoteView } from "../../remote/view-data.js";
import { allClaims } from "../../store/claims/rows.js";
import { sessionById } from "../../store/sessions/rows.js";
import { findProject, type Io, openProjectDb } from "../context.js";

interface ClaimsOptions {
  all?: boolean;
  json?: boolean;
  root?: string;
}

interface ClaimView {
  worktree: string;
  path: string;
  disposition: string;
  holder: string;
  client: string;
  task: string | null;
  live: boolean;
  lastSeen: number;
}

export function claimsCommand(io: Io): Command {
  return new Command("claims")
    .description(
      "List active write claims (those of live sessions by default) and reservations held through the remote",
    )
    .option("--all", "include claims of stale sessions (they no longer block anyone)")
    .option("--json", "print a JSON array")
    .addHelpText("after", "\nExample:\n  tandem claims --all --json\n")
    .action((_o: ClaimsOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<ClaimsOptions>();
      const project = findProject(io, opts.root);
      const db = openProjectDb(project, { create: false });
      const now = Date.now();
      const views: ClaimView[] = [];
      for (const c of db ? allClaims(db) : []) {
        const s = sessionById(db!, c.session_id);
        if (!s) continue;
        const h = holderOf(db!, s, now, project.loaded.config.freshnessSeconds);
        views.push({
          worktree: c.worktree,
          path: c.path,
          disposition: c.disposition,
          holder: h.name,
          client: h.client,
          task: h.task,
          live: h.live,
          lastSeen: h.lastSeen,
        });
      }
      // Reservations across machines block writes like claims (docs/decisions/0014): listed with them.
      // Only the leases are shown, which spell no command: no launcher is read for them.
      const { leases } = readRemoteView(db, {
        stateDir: project.stateDir,
        config: project.loaded.config,
        now,
        printer: PLAIN,
      });
      db?.close();
      const shown = opts.all ? views : views.filter((v) => v.live);
      if (opts.json) {
        const leaseViews = leases.map((l) => ({
          lease: true,
          path: l.path,
          holder: l.checkoutName,
          mine: l.mine,
          session: l.session,
          task: l.task,
          expires: l.expires,
        }));
        return io.out(`${JSON.stringify([...shown, ...leaseViews], null, 2)}\n`);
      }
      if (shown.length === 0 && leases.length === 0) return io.out("No active claims.\n");
      for (const v of shown) {
        const where = v.worktree === project.resolved.root ? v.path : `${v.worktree}/${v.path}`;
        io.out(
          `${where}  ${v.holder} (${v.client}${v.live ? "" : ", stale"}, seen ${formatAge(now - v.lastSeen)} ago)${v.task ? `  ${v.task}` : ""}\n`,
        );
      }
      for (const l of leases) io.out(`${leaseLine(l)}\n`);
    });
}
