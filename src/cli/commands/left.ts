/**
 * `tandem adopt` and `tandem discard`: the two ways to settle left work, uncommitted files of a
 * session that ended (decision 0029). Adopt makes the calling agent the owner; discard is a
 * person's, and throws the changes away after saving their bytes.
 */
import { Command } from "commander";
import type { LeftItem } from "../../core/claims/left-work.js";
import { ownerPhrase } from "../../core/claims/left-work.js";
import { relativeKey } from "../../core/paths/lexical.js";
import { resolveTarget } from "../../core/paths/target.js";
import { type Printer, printed, spanned } from "../../core/printed.js";
import { TandemError, UsageError } from "../../errors.js";
import { physicalPath } from "../../facts/physical.js";
import { restoreToHead } from "../../git/restore.js";
import { noticeLeft } from "../../safety/left-keep.js";
import { blobsDirOf } from "../../safety/preserve.js";
import type { Db } from "../../store/db.js";
import { append, write } from "../../store/ledger/append.js";
import { findProject, type Io, openProjectDb, type Project, releaseProjectDb } from "../context.js";
import { callerPrinter, helpPrinter } from "../printer.js";
import { ownSession } from "../session-opts.js";

interface LeftOptions {
  session?: string;
  yes?: boolean;
  root?: string;
}

function keysOf(project: Project, io: Io, raws: readonly string[]): string[] {
  const root = project.resolved.root;
  return raws.map((raw) => {
    const r = resolveTarget(raw, io.cwd, [root], {}, physicalPath);
    if (!r.ok) throw new UsageError(`${raw}: ${r.reason}`);
    return relativeKey(root, r.target.physical);
  });
}

/** The left work among `keys` (its bytes saved now); any key that is not left work refuses all. */
function leftOf(
  db: Db,
  project: Project,
  keys: readonly string[],
  actor: string | null,
  p: Printer,
): LeftItem[] {
  const q = {
    worktree: project.resolved.root,
    repoTop: project.resolved.repo?.top ?? null,
    now: Date.now(),
    freshnessSeconds: project.loaded.config.freshnessSeconds,
    paths: keys,
  };
  const found = noticeLeft(db, q, blobsDirOf(project.stateDir), actor);
  const missing = keys.filter((k) => !found.some((i) => i.path === k));
  if (missing.length > 0)
    throw new TandemError(
      `${missing.join(", ")}: not left work (an uncommitted file whose owner session ended); nothing was changed. ${spanned(p, "status")} lists left work; a live agent's file is settled by that agent.`,
    );
  return found;
}

function withStore(io: Io, opts: LeftOptions, run: (db: Db, project: Project) => void): void {
  const project = findProject(io, opts.root);
  const db = openProjectDb(project, { create: false }, io);
  if (!db) throw new TandemError("Tandem has no store here yet, so no session ever left work here.");
  try {
    run(db, project);
  } finally {
    releaseProjectDb(io, db);
  }
}

function adopt(io: Io, raws: string[], opts: LeftOptions): void {
  withStore(io, opts, (db, project) => {
    const caller = ownSession(db, io, project, opts.session, "adopt");
    const me = caller?.session;
    if (!me)
      throw new TandemError(
        "adopt makes the calling agent session the owner, and this shell is no agent's: run it from the agent that continues the work (or name one with --session).",
      );
    const items = leftOf(db, project, keysOf(project, io, raws), me.id, callerPrinter(project, caller));
    const now = Date.now();
    write(db, (tx) => {
      for (const i of items) {
        const base = { session: me.id, ts: now };
        const where = { worktree: project.resolved.root, path: i.path };
        if (i.hold === "held")
          append(tx, {
            ...base,
            kind: "claim.released",
            data: { ...where, reason: "stale_takeover", holder: i.owner.id },
          });
        append(tx, {
          ...base,
          kind: "claim.acquired",
          data: { ...where, disposition: "git", root: project.resolved.root },
        });
      }
    });
    for (const i of items)
      io.out(`adopted ${i.path}, left by ${ownerPhrase(i.owner, now)}: ${me.name} holds it now.\n`);
    io.out("Your end-turn check now covers these files: commit them (or release them) like your own work.\n");
  });
}

function discard(io: Io, raws: string[], opts: LeftOptions): void {
  withStore(io, opts, (db, project) => {
    const own = ownSession(db, io, project, undefined, null);
    if (own)
      throw new TandemError(
        `discard throws away another session's work, so only a person runs it, from their own shell. An agent asks its user, or continues the work with ${spanned(callerPrinter(project, own), "adopt", { slot: "PATH" })}.`,
      );
    const p = callerPrinter(project, null);
    const items = leftOf(db, project, keysOf(project, io, raws), null, p);
    const now = Date.now();
    if (!opts.yes)
      throw new UsageError(
        `discard throws away the uncommitted changes of ${items.map((i) => `${i.path} (left by ${ownerPhrase(i.owner, now)})`).join(", ")}; their bytes stay saved until ${spanned(p, "gc")}. Nothing was changed: run it again with --yes to discard.`,
      );
    const top = project.resolved.repo?.top;
    if (!top)
      throw new TandemError(
        "this root is not in a git repository: there is no committed state to go back to.",
      );
    const prefix = top === project.resolved.root ? "" : `${project.resolved.root.slice(top.length + 1)}/`;
    const done = items.map((i) => ({ i, how: restoreToHead(top, `${prefix}${i.path}`) }));
    settleDiscarded(db, project.resolved.root, items, now);
    for (const { i, how } of done)
      io.out(
        `discarded ${i.path} (${how === "restored" ? "back to its committed state" : "removed: it was never committed"}), left by ${ownerPhrase(i.owner, now)}. Its bytes stay saved until ${spanned(p, "gc")}: ${spanned(p, "recover", { path: i.path }, "--session", i.owner.name)} brings them back.\n`,
      );
  });
}

function settleDiscarded(db: Db, worktree: string, items: readonly LeftItem[], now: number): void {
  write(db, (tx) => {
    for (const i of items) {
      if (i.hold === "held")
        append(tx, {
          kind: "claim.released",
          session: null,
          ts: now,
          data: { worktree, path: i.path, reason: "forced", forcedBy: "person", holder: i.owner.id },
        });
      append(tx, {
        kind: "work.settled",
        session: null,
        ts: now,
        data: { worktree, owner: i.owner.id, paths: [i.path], reason: "discarded" },
      });
    }
  });
}

export function adoptCommand(io: Io): Command {
  return new Command("adopt")
    .description(
      "Make left work (uncommitted files of a session that ended) yours: you hold its claim, and your end-turn check covers it",
    )
    .argument("<paths...>", "the left files to continue")
    .option("--session <id>", "the session that adopts them (default: the calling agent's)")
    .addHelpText(
      "after",
      "\nstatus lists left work, with who left it and its task.\n\nExamples:\n  tandem adopt src/parser.ts\n  tandem adopt src/a.ts src/b.ts\n",
    )
    .action((paths: string[], _o: LeftOptions, cmd: Command) => adopt(io, paths, cmd.optsWithGlobals()));
}

export function discardCommand(io: Io): Command {
  return new Command("discard")
    .description(
      "Throw away left work (uncommitted files of a session that ended): each goes back to its committed state; its bytes stay saved until gc runs",
    )
    .argument("<paths...>", "the left files to throw away")
    .option("--yes", "really discard (without it, nothing changes and it says what would go)")
    .addHelpText("after", () => {
      const p = helpPrinter(io);
      return `\nFor a person, from their own shell; an agent adopts left work instead.\n\nExamples:\n  ${printed(p, "discard", "notes.txt", "--yes")}\n  ${printed(p, "recover", "notes.txt", "--session", "amber")}   # the discarded bytes, back\n`;
    })
    .action((paths: string[], _o: LeftOptions, cmd: Command) => discard(io, paths, cmd.optsWithGlobals()));
}
