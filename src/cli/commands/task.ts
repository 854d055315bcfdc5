import { Command } from "commander";
import { append, write } from "../../store/ledger/append.js";
import { findProject, type Io, openProjectDb, releaseProjectDb } from "../context.js";
import { callerSession } from "../session-opts.js";

interface TaskOptions {
  session?: string;
  json?: boolean;
  root?: string;
}

/** A title a user can give the agent's conversation so the board and the chat list agree. */
export function suggestedTitle(name: string, task: string): string {
  const text = task.trim().replace(/\s+/g, " ");
  const title = text ? `${name}: ${text}` : name;
  return title.length > 60 ? `${title.slice(0, 59)}…` : title;
}

export function taskCommand(io: Io): Command {
  return new Command("task")
    .description('Declare what this session is working on ("" acknowledges a turn with nothing new)')
    .argument("<text>", "one line; an empty string keeps the current task")
    .option("--session <id>", "the session (default: the calling agent's)")
    .option("--json", "print the result as JSON")
    .addHelpText("after", '\nExample:\n  tandem task "port the parser to the new AST"\n')
    .action((text: string, _o: TaskOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<TaskOptions>();
      const project = findProject(io, opts.root);
      const db = openProjectDb(project, { create: true }, io)!;
      try {
        const { session } = callerSession(db, io, project, opts.session, "task");
        const trimmed = text.trim();
        write(
          db,
          (tx) => append(tx, { kind: "task.set", session: session.id, data: { text: trimmed } }),
          "gating",
        );
        const task = trimmed || session.task || "";
        const title = suggestedTitle(session.name, task);
        if (opts.json) return io.out(`${JSON.stringify({ session: session.name, task, title })}\n`);
        // The agent's shell output lands in the reply a person reads: the title stays in --json.
        io.out(`${session.name}: task ${trimmed ? "set" : "unchanged"}${task ? ` — ${task}` : ""}\n`);
      } finally {
        releaseProjectDb(io, db);
      }
    });
}
