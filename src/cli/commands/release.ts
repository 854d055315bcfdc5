import { join } from "node:path";
import { Command } from "commander";
import { resolveTarget } from "../../core/target-path.js";
import { TandemError, UsageError } from "../../errors.js";
import { append, write } from "../../store/ledger.js";
import { allClaims } from "../../store/queries.js";
import { findProject, type Io, openProjectDb } from "../context.js";
import { callerSession } from "../session-opts.js";

interface ReleaseOptions {
  session?: string;
  root?: string;
}

export function releaseCommand(io: Io): Command {
  return new Command("release")
    .description("Release your claims on PATHs (a directory releases everything under it)")
    .argument("<paths...>", "files or directories you hold")
    .option("--session <id>", "the session releasing (default: the calling agent's)")
    .addHelpText("after", "\nExample:\n  tandem release src/parser.ts docs/\n")
    .action((paths: string[], _o: ReleaseOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<ReleaseOptions>();
      const project = findProject(io, opts.root);
      const db = openProjectDb(project, { create: true })!;
      try {
        const { session } = callerSession(db, io, project, opts.session);
        const keys = paths.map((raw) => {
          const r = resolveTarget(raw, io.cwd, [project.resolved.root]);
          if (!r.ok) throw new UsageError(`cannot release ${raw}: ${r.reason}`);
          return r.target.physical;
        });
        const released = write(db, () => {
          const mine = allClaims(db).filter((c) => {
            const held = join(c.worktree, c.path);
            return c.session_id === session.id && keys.some((k) => held === k || held.startsWith(`${k}/`));
          });
          for (const c of mine) {
            append(db, {
              kind: "claim.released",
              session: session.id,
              data: { worktree: c.worktree, path: c.path, reason: "explicit" },
            });
          }
          return mine;
        });
        if (released.length === 0)
          throw new TandemError(
            `${session.name} holds no claim on ${paths.join(", ")}; see \`tandem claims\`.`,
          );
        for (const c of released) io.out(`released ${c.path}\n`);
      } finally {
        db.close();
      }
    });
}
