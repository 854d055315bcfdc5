import { randomUUID } from "node:crypto";
import { Command } from "commander";
import { observeFile } from "../../claims/line-authors.js";
import { type BlameAuthor, blameRows, blameText } from "../../core/lines/blame.js";
import { UNATTRIBUTED } from "../../core/lines/layout.js";
import { spanned } from "../../core/printed.js";
import { blameTrace } from "../../core/provenance/agent-trace.js";
import { TandemError } from "../../errors.js";
import { gitStatus } from "../../git/run.js";
import type { Db } from "../../store/db.js";
import { sessionById } from "../../store/sessions/rows.js";
import { VERSION } from "../../version.js";
import { findProject, type Io, openProjectDb } from "../context.js";
import { callerPrinter } from "../printer.js";
import { locateInRepo } from "./stage.js";

interface BlameOptions {
  json?: boolean;
  root?: string;
}

function authorOf(db: Db, id: string): BlameAuthor {
  if (id === UNATTRIBUTED)
    return { session: id, name: "unattributed (a person or an unhooked tool)", client: null };
  const s = sessionById(db, id);
  return { session: id, name: s?.name ?? id, client: s?.client ?? null };
}

export function blameCommand(io: Io): Command {
  return new Command("blame")
    .description("Show which session wrote each uncommitted hunk of a file")
    .argument("<path>", "a file of the repository")
    .option("--json", "print the hunks as an Agent Trace record (decision 0073)")
    .addHelpText("after", "\nExample:\n  tandem blame src/schema.ts\n")
    .action((path: string, _o: BlameOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<BlameOptions>();
      const project = findProject(io, opts.root);
      const top = project.resolved.repo?.top;
      if (!top)
        throw new TandemError(
          `${project.resolved.root} is not a git repository: blame reads hunks against HEAD.`,
        );
      const where = locateInRepo(io, top, path);
      const db = openProjectDb(project, { create: false });
      if (!db)
        throw new TandemError(
          `Tandem has no store here yet; set the repository up with ${spanned(callerPrinter(project, null), "init")} first.`,
        );
      try {
        // What changed since a hook last saw the file is shown, as nobody's we know.
        const hunks = observeFile(db, where.worktree, where.path, null, Date.now());
        if (hunks === null)
          throw new TandemError(`${path} is not a text file Tandem tracks by lines (binary, or over 2 MB).`);
        const rows = blameRows(hunks, (id) => authorOf(db, id));
        if (!opts.json) {
          io.out(blameText(where.path, rows));
          return;
        }
        const head = gitStatus(where.worktree, ["rev-parse", "--verify", "-q", "HEAD"]);
        const base = head.status === 0 ? head.stdout.trim() : null;
        const trace = blameTrace(where.path, rows, { id: randomUUID(), at: new Date(), tool: VERSION, base });
        io.out(`${JSON.stringify(trace, null, 2)}\n`);
      } finally {
        db.close();
      }
    });
}
