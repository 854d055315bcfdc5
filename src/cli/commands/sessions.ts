import { Command } from "commander";
import { printed } from "../../core/printed.js";
import { sessionViews } from "../../sessions/view.js";
import { findProject, type Io, openProjectDb } from "../context.js";
import { formatSessions } from "../format/sessions.js";
import { helpPrinter, provenPrinter } from "../printer.js";

interface SessionsOptions {
  all?: boolean;
  json?: boolean;
  root?: string;
}

export function sessionsCommand(io: Io): Command {
  return new Command("sessions")
    .description("List agent sessions (live ones by default)")
    .option("--all", "include stale and ended sessions")
    .option("--json", "print a JSON array")
    .addHelpText("after", () => `\nExample:\n  ${printed(helpPrinter(io), "sessions", "--all", "--json")}\n`)
    .action((_opts: SessionsOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<SessionsOptions>();
      const project = findProject(io, opts.root);
      const db = openProjectDb(project, { create: false });
      const now = Date.now();
      const fresh = project.loaded.config.freshnessSeconds;
      const all = db ? sessionViews(db, fresh, now, { all: opts.all === true }) : [];
      const printer = provenPrinter(db, io, project);
      db?.close();
      const shown = opts.all ? all : all.filter((s) => s.live);
      io.out(opts.json ? `${JSON.stringify(shown, null, 2)}\n` : formatSessions(shown, now, printer));
    });
}
