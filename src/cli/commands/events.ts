import { Command, InvalidArgumentError } from "commander";
import { UsageError } from "../../errors.js";
import type { Db } from "../../store/db.js";
import { allSessions, findSessions, listEvents, type SessionRow } from "../../store/queries.js";
import { findProject, type Io, openProjectDb } from "../context.js";
import { eventLine, formatEventText } from "../format/events.js";

interface EventsOptions {
  session?: string;
  kind?: string;
  since?: number;
  follow?: boolean;
  json?: boolean;
  root?: string;
}

function parseSeq(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected a sequence number (0 or more)");
  return n;
}

function sessionFilter(db: Db, ref: string | undefined): string | undefined {
  if (!ref) return undefined;
  const found = findSessions(db, ref);
  if (found.length === 0)
    throw new UsageError(`no session matches --session ${ref}; list them with \`tandem sessions --all\`.`);
  if (found.length > 1)
    throw new UsageError(`--session ${ref} matches ${found.length} sessions; pass the Tandem name instead.`);
  return found[0]!.id;
}

function printBatch(io: Io, db: Db, opts: EventsOptions, session: string | undefined, since: number): number {
  const events = listEvents(db, { session, kind: opts.kind, sinceSeq: since });
  if (events.length === 0) return since;
  const sessions = new Map<string, SessionRow>(allSessions(db).map((s) => [s.id, s]));
  for (const ev of events) {
    const line = eventLine(ev, sessions);
    io.out(opts.json ? `${JSON.stringify(line)}\n` : formatEventText(line));
  }
  return events[events.length - 1]!.seq;
}

async function follow(
  io: Io,
  db: Db,
  opts: EventsOptions,
  session: string | undefined,
  since: number,
): Promise<void> {
  let last = since;
  let stop = false;
  const onSignal = () => {
    stop = true;
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  while (!stop) {
    await process.getBuiltinModule("node:timers/promises").setTimeout(200);
    last = printBatch(io, db, opts, session, last);
  }
}

export function eventsCommand(io: Io): Command {
  return new Command("events")
    .description("Print the event ledger")
    .option("--session <id>", "only this session (native id, Tandem name or internal id)")
    .option("--kind <kind>", "only this kind (e.g. claim.acquired, or claim.* for a family)")
    .option("--since <seq>", "only events after this sequence number", parseSeq)
    .option("--follow", "keep printing new events as they are recorded")
    .option("--json", "one JSON object per line")
    .addHelpText("after", "\nExample:\n  tandem events --kind claim.* --json\n")
    .action(async (_opts: EventsOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<EventsOptions>();
      const project = findProject(io, opts.root);
      const db = openProjectDb(project, { create: opts.follow === true });
      if (!db) return;
      try {
        const session = sessionFilter(db, opts.session);
        const last = printBatch(io, db, opts, session, opts.since ?? 0);
        if (opts.follow) await follow(io, db, opts, session, last);
      } finally {
        db.close();
      }
    });
}
