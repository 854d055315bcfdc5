import { resolve } from "node:path";
import { Command } from "commander";
import { applyUndo, planSessionUndo, previewText } from "../../claims/undo.js";
import { parseDuration } from "../../core/duration.js";
import { UNATTRIBUTED } from "../../core/lines/layout.js";
import {
  sinceWindow,
  turnWindow,
  type UndoWindow,
  WHOLE_SESSION,
  windowText,
} from "../../core/lines/window.js";
import { plural } from "../../core/plural.js";
import { spanned } from "../../core/printed.js";
import { TandemError } from "../../errors.js";
import type { Db } from "../../store/db.js";
import { sessionPrompts } from "../../store/events/reads.js";
import { sessionById } from "../../store/sessions/rows.js";
import { findProject, type Io, openProjectDb } from "../context.js";
import { callerPrinter } from "../printer.js";
import { callerSession } from "../session-opts.js";
import { locateInRepo } from "./stage.js";

interface UndoOptions {
  session?: string;
  yes?: boolean;
  turn?: string | true;
  since?: string;
  root?: string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The window `--turn` or `--since` asks for (decision 0074); the whole session without either. */
function windowOf(db: Db, opts: UndoOptions, session: { id: string; name: string }, now: number): UndoWindow {
  if (opts.turn !== undefined && opts.since !== undefined)
    throw new TandemError("undo takes --turn or --since, not both; pick the one window to take back.");
  if (opts.since !== undefined) {
    const w = sinceWindow(opts.since, now, parseDuration);
    if (typeof w === "string") throw new TandemError(`--since ${w}.`);
    return w;
  }
  if (opts.turn === undefined) return WHOLE_SESSION;
  const n = opts.turn === true ? null : /^\d+$/.test(opts.turn) ? Number(opts.turn) : Number.NaN;
  if (Number.isNaN(n))
    throw new TandemError(
      `--turn takes a turn's number (1 is the session's first prompt), not "${opts.turn}"; leave it out for the latest turn (with paths, put them before --turn).`,
    );
  const w = turnWindow(sessionPrompts(db, session.id), n);
  if (typeof w === "string") throw new TandemError(`${session.name} ${w}.`);
  return w;
}

export function undoCommand(io: Io): Command {
  return new Command("undo")
    .description(
      "Take this session's uncommitted hunks back to the committed text, leaving other sessions' lines",
    )
    .argument("[paths...]", "only these files (default: every file with this session's hunks)")
    .option("--yes", "apply the undo (without it, only the preview is shown)")
    .option(
      "--turn [n]",
      "only the hunks written in turn n (1 is the first prompt; default: the latest turn)",
    )
    .option(
      "--since <when>",
      "only the hunks written since a time (2026-12-04T21:30) or for a duration (45m, 2h)",
    )
    .option("--session <id>", "the session whose hunks to undo (default: the caller's)")
    .addHelpText(
      "after",
      "\nExample:\n  tandem undo                 # preview\n  tandem undo --yes           # apply\n  tandem undo --turn --yes    # only this turn's hunks\n  tandem undo --since 20m     # preview the last 20 minutes' hunks\n",
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
        const window = windowOf(db, opts, me, now);
        const named = windowText(window, iso);
        const written =
          window.kind === "all" ? "" : window.kind === "turn" ? ` written in ${named}` : ` written ${named}`;
        const files = planSessionUndo(db, me.id, now, only, window);
        if (files.length === 0) {
          io.out(
            `${me.name} has no uncommitted hunks Tandem attributes to it${written}${only ? " in those files" : ""}; nothing to undo.\n`,
          );
          return;
        }
        const nameOf = (id: string) =>
          id === me.id
            ? ""
            : id === UNATTRIBUTED
              ? "an unattributed writer"
              : (sessionById(db, id)?.name ?? id);
        const outside = window.kind === "since" ? `before ${iso(window.from)}` : `outside ${named}`;
        io.out(previewText(files, nameOf, outside));
        const conflicts = files.reduce((n, f) => n + f.plan.conflicts.length, 0);
        if (conflicts > 0) {
          const carry =
            window.kind === "all"
              ? "also carry later changes of other authors"
              : `carry other authors' changes or were also written ${outside}`;
          throw new TandemError(
            `undo refused, nothing changed: ${plural(conflicts, "hunk")} of ${me.name} ${carry} (marked conflict above). Undo them by hand, undo a wider window (the whole session: ${spanned(printer, "undo")}), or undo only other files: ${spanned(printer, "undo", { slot: "PATH" })}.`,
          );
        }
        const count = files.reduce((n, f) => n + f.plan.revert.length, 0);
        if (!opts.yes) {
          const again = windowArgs(opts);
          io.out(
            `Preview only: nothing changed. Run ${spanned(printer, "undo", ...again, "--yes", ...paths.map((path) => ({ path })))} to take back these ${plural(count, "hunk")}.\n`,
          );
          return;
        }
        const stopped = applyUndo(db, files, now);
        if (stopped) throw new TandemError(stopped);
        io.out(
          `Undid ${plural(count, "hunk")} of ${me.name}${written} in ${plural(files.length, "file")}; other sessions' lines are as they were. The preview above shows the lines taken back.\n`,
        );
      } finally {
        db.close();
      }
    });
}

/** The window's options as the user gave them, for the command that applies the preview. */
function windowArgs(opts: UndoOptions): string[] {
  if (opts.since !== undefined) return ["--since", opts.since];
  if (opts.turn === true) return ["--turn"];
  return opts.turn === undefined ? [] : ["--turn", opts.turn];
}
