import { Command, InvalidArgumentError } from "commander";
import type { Printer } from "../../core/printed.js";
import type { Db } from "../../store/db.js";
import { maxSeq } from "../../store/events/list.js";
import { watchLoop } from "../../watch/loop.js";
import { type BoardConfig, boardModel } from "../../watch/model.js";
import { renderBoard } from "../../watch/render.js";
import { openTerminal } from "../../watch/terminal.js";
import { printerOf } from "../../wiring/agent-shell.js";
import { findProject, type Io, openProjectDb } from "../context.js";

interface WatchOptions {
  interval: number;
  events: number;
  once?: boolean;
  root?: string;
}

function intIn(min: number, max: number, what: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(`expected ${what} from ${min} to ${max}`);
    return n;
  };
}

/** NO_COLOR (https://no-color.org) and a dumb terminal mean no escape codes for colour at all. */
export function wantsColor(env: Io["env"], isTty: boolean): boolean {
  return isTty && !env.NO_COLOR && env.TERM !== "dumb";
}

/** A snapshot has no terminal to ask: `COLUMNS` when set, else the classic 80. */
function snapshotWidth(io: Io): number {
  if (io.isTty && process.stdout.columns) return process.stdout.columns;
  const cols = Number(io.env.COLUMNS);
  return Number.isInteger(cols) && cols > 0 ? cols : 80;
}

function snapshot(io: Io, db: Db | null, cfg: BoardConfig, printer: Printer): void {
  const lines = renderBoard(boardModel(db, Date.now(), cfg), {
    printer,
    width: snapshotWidth(io),
    height: Number.POSITIVE_INFINITY,
    color: wantsColor(io.env, io.isTty),
  });
  io.out(`${lines.join("\n")}\n`);
}

async function live(io: Io, db: Db, cfg: BoardConfig, interval: number, printer: Printer): Promise<void> {
  const color = wantsColor(io.env, true);
  await watchLoop(
    openTerminal(),
    {
      seq: () => maxSeq(db),
      frame: (now, size) =>
        renderBoard(boardModel(db, now, cfg), { width: size.columns, height: size.rows, color, printer }),
    },
    { interval },
  );
}

export function watchCommand(io: Io): Command {
  return new Command("watch")
    .description("Live board of sessions, claims, sub-agents and recent events; q quits")
    .option("--interval <ms>", "how often to look for new events", intIn(50, 60_000, "milliseconds"), 250)
    .option("--events <n>", "how many recent events to show", intIn(1, 500, "a count"), 15)
    .option("--once", "print one frame and exit (what happens anyway when stdout is not a terminal)")
    .addHelpText(
      "after",
      `
The board redraws when a new event is recorded and once a second so ages tick.
It uses the terminal's alternate screen and works over SSH and in narrow
terminals. Colours only on a terminal, never with NO_COLOR set. When stdout is
not a terminal (a pipe, a file, CI), it prints one snapshot and exits 0.

Examples:
  tandem watch
  tandem watch --interval 1000 --events 30
  NO_COLOR=1 tandem watch --once | less
`,
    )
    .action(async (_o: WatchOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<WatchOptions>();
      const project = findProject(io, opts.root);
      // The board is read by a person: its commands are spelled as their terminal starts Tandem.
      const printer = printerOf(project.resolved.root, project.stateDir, "person");
      const cfg: BoardConfig = {
        root: project.resolved.root,
        repoTop: project.resolved.repo?.top ?? null,
        freshnessSeconds: project.loaded.config.freshnessSeconds,
        events: opts.events,
        remote: { stateDir: project.stateDir, config: project.loaded.config, printer },
        guard: project.loaded.config.guard,
      };
      const once = opts.once === true || !io.isTty;
      // A snapshot only reads; the live board creates the store, as `events --follow` does, to wait for events.
      const db = openProjectDb(project, { create: !once });
      try {
        if (once) snapshot(io, db, cfg, printer);
        else await live(io, db!, cfg, opts.interval, printer);
      } finally {
        db?.close();
      }
    });
}
