import { Command } from "commander";
import { renderStatusBox, type StatusModel } from "../../core/status-box.js";
import { TandemError } from "../../errors.js";
import { statusModel } from "../../status/model.js";
import { append, write } from "../../store/ledger.js";
import type { SessionRow } from "../../store/queries.js";
import { findProject, type Io, openProjectDb } from "../context.js";
import { callerSession } from "../session-opts.js";

interface StatusOptions {
  endTurn?: boolean;
  json?: boolean;
  session?: string;
  root?: string;
}

function statusJson(s: SessionRow, m: StatusModel, findings: unknown): string {
  return `${JSON.stringify({
    ok: true,
    session: { id: s.id, name: s.name, client: s.client, task: s.task, activity: s.activity },
    claims: m.claims,
    awaiting: m.awaiting,
    peers: m.peers,
    subagents: m.subagents,
    warnings: m.warnings,
    findings,
  })}\n`;
}

export function statusCommand(io: Io): Command {
  return new Command("status")
    .description("Show this session's status box and record that it was checked")
    .option("--end-turn", "first prove this session's own Git work is committed and pushed")
    .option("--json", "print the status as one JSON object")
    .option("--session <id>", "the session (default: the calling agent's)")
    .addHelpText("after", "\nExamples:\n  tandem status\n  tandem status --end-turn --json\n")
    .action((_o: StatusOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<StatusOptions>();
      if (opts.endTurn) {
        throw new TandemError(
          "tandem status --end-turn is not available in this version; it would have to prove your work is pushed, and it will not pretend to. Run `tandem status`.",
        );
      }
      const project = findProject(io, opts.root);
      const db = openProjectDb(project, { create: true })!;
      try {
        const { session } = callerSession(db, io, project, opts.session);
        write(db, () =>
          append(db, { kind: "status.checked", session: session.id, data: { end_turn: false } }),
        );
        const model = statusModel(db, session, {
          root: project.resolved.root,
          repoTop: project.resolved.repo?.top ?? null,
          config: project.loaded.config,
          endTurn: false,
        });
        io.out(opts.json ? statusJson(session, model, {}) : renderStatusBox(model));
      } finally {
        db.close();
      }
    });
}
