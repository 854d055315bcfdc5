import { resolve } from "node:path";
import { Command } from "commander";
import { applyUndo, planSessionUndo, previewText } from "../../claims/undo.js";
import { UNATTRIBUTED } from "../../core/lines/layout.js";
import { plural } from "../../core/plural.js";
import { spanned } from "../../core/printed.js";
import { TandemError } from "../../errors.js";
import { sessionById } from "../../store/sessions/rows.js";
import { findProject, type Io, openProjectDb } from "../context.js";
import { callerPrinter } from "../printer.js";
import { callerSession } from "../session-opts.js";
import { locateInRepo } from "./stage.js";

interface UndoOptions {
  session?: string;
  yes?: boolean;
  root?: string;
}

export function undoCommand(io: Io): Command {
  return new Command("undo")
    .description(
      "Take this session's uncommitted hunks back to the committed text, leaving other sessions' lines",
    )
    .argument("[paths...]", "only these files (default: every file with this session's hunks)")
    .option("--yes", "apply the undo (without it, only the preview is shown)")
    .option("--session <id>", "the session whose hunks to undo (default: the caller's)")
    .addHelpText(
      "after",
      "\nExample:\n  tandem undo            # preview\n  tandem undo --yes      # apply\n",
    )
    .action((paths: string[], _o: UndoOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<UndoOptions>();
      const project = findProject(io, opts.root);
      const top = project.resolved.repo?.top;
      if (!top)
        throw new TandemError(
          `${project.resolved.root} is not a git repository: undo works on hunks against HEAD.`,
        );
      const db = openProjectDb(project, { create: false });
      if (!db)
        throw new TandemError(
          `Tandem has no store here yet; set the repository up with ${spanned(callerPrinter(project, null), "init")} first.`,
        );
      try {
        const caller = callerSession(db, io, project, opts.session, "undo");
        const me = caller.session;
        const printer = callerPrinter(project, caller);
        const only =
          paths.length > 0
            ? new Set(
                paths.map((p) => {
                  const w = locateInRepo(io, top, p);
                  return resolve(w.worktree, w.path);
                }),
              )
            : null;
        const now = Date.now();
        const files = planSessionUndo(db, me.id, now, only);
        if (files.length === 0) {
          io.out(
            `${me.name} has no uncommitted hunks Tandem attributes to it${only ? " in those files" : ""}; nothing to undo.\n`,
          );
          return;
        }
        const nameOf = (id: string) =>
          id === me.id
            ? ""
            : id === UNATTRIBUTED
              ? "an unattributed writer"
              : (sessionById(db, id)?.name ?? id);
        io.out(previewText(files, nameOf));
        const conflicts = files.reduce((n, f) => n + f.plan.conflicts.length, 0);
        if (conflicts > 0) {
          throw new TandemError(
            `undo refused, nothing changed: ${plural(conflicts, "hunk")} of ${me.name} also carry later changes of other authors (marked conflict above). Undo them by hand with their authors, or undo only other files: ${spanned(printer, "undo", { slot: "PATH" })}.`,
          );
        }
        const count = files.reduce((n, f) => n + f.plan.revert.length, 0);
        if (!opts.yes) {
          io.out(
            `Preview only: nothing changed. Run ${spanned(printer, "undo", "--yes", ...paths.map((path) => ({ path })))} to take back these ${plural(count, "hunk")}.\n`,
          );
          return;
        }
        const stopped = applyUndo(db, files, now);
        if (stopped) throw new TandemError(stopped);
        io.out(
          `Undid ${plural(count, "hunk")} of ${me.name} in ${plural(files.length, "file")}; other sessions' lines are as they were. The preview above shows the lines taken back.\n`,
        );
      } finally {
        db.close();
      }
    });
}
