import { plural } from "../core/plural.js";
import { PLAIN, type Printer, printed } from "../core/printed.js";
import { showsElsewhere } from "../core/remote/remote-view.js";
import { formatAge } from "../core/sessions/liveness.js";
import { authorText } from "../core/ui/line-rows.js";
import {
  claimColumns,
  clock,
  eventColumns,
  leftColumns,
  lineColumns,
  remoteColumns,
  sessionColumns,
  subagentColumns,
} from "./columns.js";
import { remoteRows, remoteSummary } from "./elsewhere.js";
import type { BoardModel } from "./model.js";
import { clipLine, type Line, type Style, seg, spread, toText } from "./segments.js";
import { type Column, table } from "./table.js";
import { clipLeft, textWidth } from "./text.js";

export interface RenderOptions {
  width: number;
  /** Rows available; `Infinity` for a snapshot printed to a pipe or scrollback. */
  height: number;
  color: boolean;
  /** How the person reading the board starts Tandem (decision 0051); absent: plain `tandem`. */
  printer?: Printer;
}

/** Below this many columns the board drops its less important columns. */
export const NARROW = 60;

export const EMPTY_HINT =
  "No sessions yet. A session appears when an agent with Tandem's hooks (set up by Tandem's init) starts working in this repository.";

interface Section {
  title: Line;
  /** Column header plus rows, already laid out. */
  head: Line[];
  rows: Line[];
  /** Which rows to keep when cut: the newest events are at the end, everything else at the start. */
  keep: "start" | "end";
}

function titleLine(name: string, summary: string, width: number): Line {
  const head = `-- ${name} `;
  const rest = summary ? `${summary} ` : "";
  const dashes = "-".repeat(Math.max(0, width - textWidth(head) - textWidth(rest)));
  return [seg(head, "bold"), seg(rest), seg(dashes, "dim")];
}

function wrap(text: string, width: number, style: Style = "dim"): Line[] {
  const out: string[] = [];
  let cur = "";
  for (const word of text.split(" ")) {
    if (cur && textWidth(cur) + 1 + textWidth(word) > width) {
      out.push(cur);
      cur = word;
    } else cur = cur ? `${cur} ${word}` : word;
  }
  if (cur) out.push(cur);
  return out.map((l) => [seg(l, style)]);
}

function section<R>(
  name: string,
  summary: string,
  cols: Column<R>[],
  rows: readonly R[],
  width: number,
  opts: { header?: boolean; keep?: "start" | "end"; empty?: Line[] } = {},
): Section {
  const laid = table(cols, rows, { width, narrow: width < NARROW, header: opts.header ?? true });
  const hasHead = rows.length > 0 && (opts.header ?? true);
  return {
    title: titleLine(name, summary, width),
    head: hasHead ? laid.slice(0, 1) : [],
    rows: rows.length > 0 ? laid.slice(hasHead ? 1 : 0) : (opts.empty ?? []),
    keep: opts.keep ?? "start",
  };
}

/** Other checkouts: shown only with a remote to share through; the unknown line closes it. */
function elsewhere(m: BoardModel, width: number): Section[] {
  if (!showsElsewhere(m.elsewhere)) return [];
  const { summary, unknown } = remoteSummary(m.elsewhere, m.now);
  const s = section("ELSEWHERE", summary, remoteColumns(), remoteRows(m.elsewhere, m.now), width);
  const warn = unknown.flatMap((t, i) => wrap(t, width, i === 0 ? "yellow" : "dim"));
  return [{ ...s, rows: [...s.rows, ...warn] }];
}

/** Left work: shown only while there is some, with what to do about it. */
function leftWork(m: BoardModel, width: number, p: Printer): Section[] {
  const left = m.left ?? [];
  if (left.length === 0) return [];
  const s = section("LEFT WORK", `${left.length} uncommitted, nobody's`, leftColumns(m.now), left, width);
  // A person reads the board: they recover or discard; only an agent adopts (decision 0045).
  const hint = wrap(
    `${printed(p, "recover", { slot: "PATH" }, "--session", { slot: "NAME" })} (its saved bytes) | ${printed(p, "discard", { slot: "PATH" }, "--yes")} | an agent adopts it to continue it`,
    width,
  );
  return [{ ...s, rows: [...s.rows, ...hint] }];
}

/** Files two sessions share by lines: shown only while there are some, a row per hunk. */
function sharedLines(m: BoardModel, width: number): Section[] {
  const files = m.lines ?? [];
  if (files.length === 0) return [];
  const rows = files.flatMap((f) =>
    f.hunks.map((h) => ({
      path: f.path,
      where: h.where,
      change: `+${h.added} -${h.removed}`,
      by: h.authors.map(authorText).join(", "),
    })),
  );
  const summary = `${plural(rows.length, "hunk")} in ${plural(files.length, "file")}`;
  return [section("SHARED BY LINES", summary, lineColumns(), rows, width)];
}

function sections(m: BoardModel, width: number, p: Printer): Section[] {
  const by = (state: string) => m.sessions.filter((s) => s.state === state).length;
  const states = ["live", "stale", "ended"].filter((s) => by(s) > 0).map((s) => `${by(s)} ${s}`);
  const liveClaims = m.claims.filter((c) => c.state === "live").length;
  return [
    section("SESSIONS", states.join(", "), sessionColumns(m.now), m.sessions, width, {
      empty: wrap(EMPTY_HINT, width),
    }),
    section(
      "CLAIMS",
      m.claims.length
        ? `${liveClaims} blocking${m.claims.length > liveClaims ? `, ${m.claims.length - liveClaims} stale` : ""}`
        : "none",
      claimColumns(m.now),
      m.claims,
      width,
    ),
    ...sharedLines(m, width),
    ...leftWork(m, width, p),
    ...elsewhere(m, width),
    section(
      "SUB-AGENTS",
      m.subagents.length ? String(m.subagents.length) : "none",
      subagentColumns(),
      m.subagents,
      width,
    ),
    section(
      "EVENTS",
      m.events.length ? `last ${m.events.length}` : "none yet",
      eventColumns(),
      m.events,
      width,
      {
        header: false,
        keep: "end",
      },
    ),
  ];
}

/** Shares `room` rows among sections one row at a time, so one long list cannot starve the others. */
function share(wants: number[], room: number): number[] {
  const got = wants.map(() => 0);
  let left = room;
  let progress = true;
  while (left > 0 && progress) {
    progress = false;
    for (let i = 0; i < wants.length && left > 0; i++) {
      if (got[i]! < wants[i]!) {
        got[i]! += 1;
        left -= 1;
        progress = true;
      }
    }
  }
  return got;
}

function cut(s: Section, rows: number): Line[] {
  if (rows >= s.rows.length) return s.rows;
  if (rows <= 0) return [];
  if (s.keep === "end") return s.rows.slice(s.rows.length - rows);
  return [...s.rows.slice(0, rows - 1), [seg(`  ... ${s.rows.length - rows + 1} more`, "dim")]];
}

function header(m: BoardModel, width: number): Line {
  const time = clock(m.now);
  const label = "tandem watch ";
  const room = width - textWidth(label) - textWidth(time) - 1;
  return spread([seg(label, "bold"), seg(clipLeft(m.root, Math.max(0, room)))], [seg(time)], width);
}

function footer(m: BoardModel, width: number): Line {
  const last = m.events[m.events.length - 1];
  const right = last ? `event #${m.seq}, ${formatAge(m.now - last.ts)} ago` : "no events yet";
  return spread([seg("q", "bold"), seg(" quit")], [seg(right, "dim")], width);
}

/** The whole board as terminal lines: at most `height` lines, none wider than `width` cells. */
export function renderBoard(m: BoardModel, opts: RenderOptions): string[] {
  const width = Math.max(1, Math.floor(opts.width));
  const secs = sections(m, width, opts.printer ?? PLAIN);
  const fixed = 2 + secs.reduce((n, s) => n + 1 + s.head.length, 0);
  const rows = share(
    secs.map((s) => s.rows.length),
    Math.max(0, opts.height - fixed),
  );
  const body = secs.flatMap((s, i) => [s.title, ...(rows[i]! > 0 ? s.head : []), ...cut(s, rows[i]!)]);
  const limit = Math.max(0, opts.height - 2);
  const lines = [header(m, width), ...body.slice(0, limit), footer(m, width)].slice(
    0,
    Math.max(1, opts.height),
  );
  return lines.map((l) => toText(clipLine(l, width), opts.color));
}
