import { realpathSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { Command } from "commander";
import { groupOf } from "../../claims/holders.js";
import { observeFile, readTexts, shareOf } from "../../claims/line-authors.js";
import type { OwnedHunk } from "../../core/lines/layout.js";
import { plural } from "../../core/plural.js";
import { spanned } from "../../core/printed.js";
import { TandemError } from "../../errors.js";
import { stageText } from "../../git/stage.js";
import type { Db } from "../../store/db.js";
import { sessionById } from "../../store/sessions/rows.js";
import { findProject, type Io, openProjectDb } from "../context.js";
import { callerPrinter } from "../printer.js";
import { callerSession } from "../session-opts.js";

interface StageOptions {
  session?: string;
  root?: string;
}

/** The file's repository top and its path there, both as the filesystem names them. */
export function locateInRepo(io: Io, top: string, path: string): { worktree: string; path: string } {
  const abs = resolve(io.cwd, path);
  let dir: string;
  try {
    dir = realpathSync(dirname(abs));
  } catch {
    throw new TandemError(`${path}: no such directory. Name a file inside the repository.`);
  }
  const worktree = realpathSync(top);
  const rel = relative(worktree, join(dir, abs.slice(dirname(abs).length + 1)));
  if (rel.startsWith(".."))
    throw new TandemError(`${path} is outside the repository ${top}. Name a file inside it.`);
  return { worktree, path: rel };
}

/** A hunk is the caller's when it or a session of its group wrote any of it. */
function ownedBy(db: Db, group: string): (h: OwnedHunk) => boolean {
  const groups = new Map<string, string | null>();
  const groupOfId = (id: string): string | null => {
    if (!groups.has(id)) {
      const s = sessionById(db, id);
      groups.set(id, s ? groupOf(db, s) : null);
    }
    return groups.get(id) ?? null;
  };
  return (h) => h.owners.some((o) => groupOfId(o) === group);
}

export function stageCommand(io: Io): Command {
  return new Command("stage")
    .description(
      "Stage exactly this session's uncommitted hunks of a file, leaving other sessions' lines unstaged",
    )
    .argument("<paths...>", "files of the repository")
    .option("--session <id>", "the session whose hunks to stage (default: the caller's)")
    .addHelpText(
      "after",
      "\nExample:\n  tandem stage src/schema.ts && git commit -m 'schema: add the user table'\n",
    )
    .action((paths: string[], _o: StageOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<StageOptions>();
      const project = findProject(io, opts.root);
      const top = project.resolved.repo?.top;
      if (!top)
        throw new TandemError(
          `${project.resolved.root} is not a git repository: there is no index to stage into.`,
        );
      const db = openProjectDb(project, { create: false });
      if (!db)
        throw new TandemError(
          `Tandem has no store here yet; set the repository up with ${spanned(callerPrinter(project, null), "init")} first.`,
        );
      try {
        const caller = callerSession(db, io, project, opts.session, "stage");
        const me = caller.session;
        const printer = callerPrinter(project, caller);
        const mine = ownedBy(db, groupOf(db, me));
        for (const p of paths) {
          const where = locateInRepo(io, top, p);
          const hunks = observeFile(db, where.worktree, where.path, null, Date.now());
          const texts = readTexts(where.worktree, where.path);
          if (hunks === null || texts === null)
            throw new TandemError(
              `${p} is not a text file Tandem tracks by lines (binary, or over 2 MB); stage it with git add.`,
            );
          const own = hunks.filter(mine);
          if (own.length === 0)
            throw new TandemError(
              `${p} has no uncommitted hunks of ${me.name}; ${spanned(printer, "blame", { path: where.path })} shows whose they are.`,
            );
          stageText(where.worktree, where.path, shareOf(texts, hunks, mine));
          const left = hunks.length - own.length;
          io.out(
            `Staged ${plural(own.length, "hunk")} of ${me.name} in ${where.path}${left > 0 ? `; left ${plural(left, "hunk")} of other sessions unstaged` : ""}.\n`,
          );
        }
        io.out("Commit with `git commit` (not `git commit -a`, which would take every hunk).\n");
      } finally {
        db.close();
      }
    });
}
