import { join } from "node:path";
import { Command } from "commander";
import { resolveTarget } from "../../core/paths/target.js";
import { printed, spanned } from "../../core/printed.js";
import { TandemError, UsageError } from "../../errors.js";
import { physicalPath } from "../../facts/physical.js";
import { resolveCaller } from "../../sessions/resolve.js";
import { allClaims } from "../../store/claims/rows.js";
import type { Db } from "../../store/db.js";
import { append, write } from "../../store/ledger/append.js";
import { findProject, type Io, openProjectDb, type Project, releaseProjectDb } from "../context.js";
import { callerPrinter, helpPrinter, printersOf } from "../printer.js";
import { callerSession } from "../session-opts.js";

interface ReleaseOptions {
  session?: string;
  force?: boolean;
  root?: string;
}

/**
 * Whose claims are released, and by whom. Only a session proven to be the caller
 * (its client's variables or its agent among our ancestors) releases its own
 * claims; naming another session, or a guess from the single live session, needs
 * --force, and the forcing is recorded.
 */
function parties(db: Db, io: Io, project: Project, opts: ReleaseOptions) {
  const proven = resolveCaller(db, {
    env: io.env,
    pid: io.pid,
    ...(io.jail === undefined ? {} : { jail: io.jail }),
    freshnessSeconds: project.loaded.config.freshnessSeconds,
    allowSingleLive: false,
    printerFor: printersOf(project),
  });
  const owner = callerSession(db, io, project, opts.session, "release").session;
  const own = proven?.session.id === owner.id;
  if (!own && !opts.force) {
    const who = proven ? `you are ${proven.session.name}` : "this command does not run inside that agent";
    throw new TandemError(
      `the claims are ${owner.name}'s and ${who}; only a claim's owner releases it. Ask ${owner.name} to release them, or, as a person who knows that session is done with them, add --force (recorded).`,
    );
  }
  return {
    owner,
    forcedBy: own ? null : (proven?.session.id ?? "person"),
    printer: callerPrinter(project, proven),
  };
}

export function releaseCommand(io: Io): Command {
  return new Command("release")
    .description("Release your claims on PATHs (a directory releases everything under it)")
    .argument("<paths...>", "files or directories you hold")
    .option("--session <id>", "whose claims (default: the calling agent's); another's needs --force")
    .option("--force", "release claims of a session other than the caller's (recorded)")
    .addHelpText(
      "after",
      () => `\nExample:\n  ${printed(helpPrinter(io), "release", "src/parser.ts", "docs/")}\n`,
    )
    .action((paths: string[], _o: ReleaseOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<ReleaseOptions>();
      const project = findProject(io, opts.root);
      const db = openProjectDb(project, { create: true }, io)!;
      try {
        const { owner: session, forcedBy, printer } = parties(db, io, project, opts);
        const keys = paths.map((raw) => {
          const r = resolveTarget(raw, io.cwd, [project.resolved.root], {}, physicalPath);
          if (!r.ok) throw new UsageError(`cannot release ${raw}: ${r.reason}`);
          return r.target.physical;
        });
        const released = write(db, (tx) => {
          const mine = allClaims(db).filter((c) => {
            const held = join(c.worktree, c.path);
            return c.session_id === session.id && keys.some((k) => held === k || held.startsWith(`${k}/`));
          });
          for (const c of mine) {
            append(tx, {
              kind: "claim.released",
              session: session.id,
              data: {
                worktree: c.worktree,
                path: c.path,
                reason: forcedBy ? "forced" : "explicit",
                ...(forcedBy ? { forcedBy } : {}),
              },
            });
          }
          return mine;
        });
        if (released.length === 0)
          throw new TandemError(
            `${session.name} holds no claim on ${paths.join(", ")}; see ${spanned(printer, "claims")}.`,
          );
        for (const c of released) io.out(`released ${c.path}\n`);
      } finally {
        releaseProjectDb(io, db);
      }
    });
}
