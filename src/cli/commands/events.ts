import { Command, InvalidArgumentError } from "commander";
import { selectKinds } from "../../core/kind-glob.js";
import { type Printer, printed, spanned } from "../../core/printed.js";
import { UsageError } from "../../errors.js";
import type { Db } from "../../store/db.js";
import { listEvents } from "../../store/events/list.js";
import { EVENT_KINDS } from "../../store/events/schemas.js";
import { allSessions, findSessions, type SessionRow } from "../../store/sessions/rows.js";
import { findProject, type Io, openProjectDb } from "../context.js";
import { eventLine, formatEventText } from "../format/events.js";
import { helpPrinter, provenPrinter } from "../printer.js";

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

/** `p` spells the list command for whoever named the session (a person, with --session). */
function sessionFilter(db: Db, ref: string | undefined, p: Printer): string | undefined {
  if (!ref) return undefined;
  const found = findSessions(db, ref);
  if (found.length === 0)
    throw new UsageError(
      `no session matches --session ${ref}; list them with ${spanned(p, "sessions", "--all")}.`,
    );
  if (found.length > 1)
    throw new UsageError(`--session ${ref} matches ${found.length} sessions; pass the Tandem name instead.`);
  return found[0]!.id;
}

/** The kinds --kind selects, or null for all; a pattern matching no known kind is a usage error. */
function kindFilter(pattern: string | undefined): ReadonlySet<string> | null {
  if (pattern === undefined) return null;
  const selected = selectKinds(pattern, EVENT_KINDS);
  if (!selected.ok) throw new UsageError(selected.message);
  return new Set(selected.kinds);
}

/** Prints the events after `since` that pass the filters; returns the last sequence number read. */
function printBatch(
  io: Io,
  db: Db,
  opts: EventsOptions,
  filter: { session: string | undefined; kinds: ReadonlySet<string> | null },
  since: number,
): { last: number; printed: number } {
  // One kind is filtered in SQL; a glob's several kinds here.
  const one = filter.kinds?.size === 1 ? [...filter.kinds][0] : undefined;
  const events = listEvents(db, { session: filter.session, kind: one, sinceSeq: since });
  const shown = filter.kinds ? events.filter((e) => filter.kinds!.has(e.kind)) : events;
  const last = events.length ? events[events.length - 1]!.seq : since;
  if (shown.length === 0) return { last, printed: 0 };
  const sessions = new Map<string, SessionRow>(allSessions(db).map((s) => [s.id, s]));
  for (const ev of shown) {
    const line = eventLine(ev, sessions);
    io.out(opts.json ? `${JSON.stringify(line)}\n` : formatEventText(line));
  }
  return { last, printed: shown.length };
}

/** Said when nothing was printed, so an empty ledger or filter does not look like a hang or a failure. */
function noneText(opts: EventsOptions, p: Printer): string {
  const filters = [
    opts.kind ? `--kind ${opts.kind}` : "",
    opts.session ? `--session ${opts.session}` : "",
    opts.since !== undefined ? `--since ${opts.since}` : "",
  ].filter(Boolean);
  return filters.length
    ? `No events match ${filters.join(" ")}.\n`
    : `No events recorded yet. Events appear when an agent with Tandem's hooks works here (see ${spanned(p, "init")}).\n`;
}

async function follow(
  io: Io,
  db: Db,
  opts: EventsOptions,
  filter: { session: string | undefined; kinds: ReadonlySet<string> | null },
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
    last = printBatch(io, db, opts, filter, last).last;
  }
}

export function eventsCommand(io: Io): Command {
  return new Command("events")
    .description("Print the event ledger")
    .option("--session <id>", "only this session (native id, Tandem name or internal id)")
    .option("--kind <kind>", "only these kinds (e.g. claim.acquired; * matches anything: claim.*, sub*)")
    .option("--since <seq>", "only events after this sequence number", parseSeq)
    .option("--follow", "keep printing new events as they are recorded")
    .option("--json", "one JSON object per line")
    .addHelpText(
      "after",
      () => `\nExample:\n  ${printed(helpPrinter(io), "events", "--kind", "claim.*", "--json")}\n`,
    )
    .action(async (_opts: EventsOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<EventsOptions>();
      const kinds = kindFilter(opts.kind);
      const project = findProject(io, opts.root);
      const db = openProjectDb(project, { create: opts.follow === true });
      const p = provenPrinter(db, io, project);
      if (!db) {
        if (!opts.json) io.out(noneText(opts, p));
        return;
      }
      try {
        const filter = { session: sessionFilter(db, opts.session, p), kinds };
        const { last, printed: shown } = printBatch(io, db, opts, filter, opts.since ?? 0);
        if (shown === 0 && !opts.json && !opts.follow) io.out(noneText(opts, p));
        if (opts.follow) await follow(io, db, opts, filter, last);
      } finally {
        db.close();
      }
    });
}
