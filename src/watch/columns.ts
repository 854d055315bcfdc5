import { formatAge } from "../core/sessions/liveness.js";
import type { SubagentRow } from "../subagents/lifecycle/rows.js";
import type { Tone } from "./events.js";
import type {
  BoardClaim,
  BoardEvent,
  BoardLeft,
  BoardRemoteRow,
  BoardSession,
  SessionState,
} from "./model.js";
import type { Style } from "./segments.js";
import type { Column } from "./table.js";
import { sanitize } from "./text.js";

const STATE_STYLE: Record<SessionState, Style | undefined> = { live: "green", stale: "yellow", ended: "dim" };
const TONE_STYLE: Record<Tone, Style | undefined> = {
  good: "green",
  bad: "red",
  warn: "yellow",
  info: "cyan",
  plain: undefined,
};

/** Local wall-clock time: the board is read by a person, in their own time zone. */
export function clock(ts: number): string {
  const d = new Date(ts);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
}

export function sessionColumns(now: number): Column<BoardSession>[] {
  return [
    { title: "NAME", cell: (s) => sanitize(s.name), style: () => "bold", max: 20, drop: 0 },
    { title: "CLIENT", cell: (s) => s.client, max: 11, drop: 4, wideOnly: true },
    { title: "KIND", cell: (s) => s.kind, max: 8, drop: 5, wideOnly: true },
    {
      title: "GUARD",
      cell: (s) => s.guard,
      style: (s) => (s.guard === "kernel" ? "green" : undefined),
      max: 6,
      drop: 5,
      wideOnly: true,
    },
    { title: "STATE", cell: (s) => s.state, style: (s) => STATE_STYLE[s.state], max: 5, drop: 0 },
    {
      title: "ACTIVITY",
      cell: (s) => (s.state === "ended" ? "-" : s.activity),
      style: (s) => (s.activity === "needs_input" ? "yellow" : undefined),
      max: 11,
      drop: 3,
    },
    { title: "CLAIMS", cell: (s) => String(s.claims), max: 6, align: "right", drop: 2 },
    { title: "SEEN", cell: (s) => formatAge(now - s.lastSeen), max: 4, align: "right", drop: 1 },
    {
      title: "TASK",
      cell: (s) => sanitize(s.task ?? "-"),
      style: (s) => (s.task ? undefined : "dim"),
      max: 200,
      flex: true,
      flexMin: 20,
      drop: 0,
    },
  ];
}

export function claimColumns(now: number): Column<BoardClaim>[] {
  return [
    { title: "PATH", cell: (c) => sanitize(c.path), max: 200, flex: true, keepEnd: true, drop: 0 },
    { title: "", cell: () => "->", max: 2, drop: 0 },
    {
      title: "HOLDER",
      cell: (c) => sanitize(c.holder),
      style: (c) => (c.state === "live" ? "bold" : "dim"),
      max: 20,
      drop: 0,
    },
    { title: "STATE", cell: (c) => c.state, style: (c) => STATE_STYLE[c.state], max: 5, drop: 2 },
    { title: "SEEN", cell: (c) => formatAge(now - c.lastSeen), max: 4, align: "right", drop: 1 },
  ];
}

export function leftColumns(now: number): Column<BoardLeft>[] {
  return [
    { title: "PATH", cell: (l) => sanitize(l.path), max: 200, flex: true, keepEnd: true, drop: 0 },
    { title: "LEFT BY", cell: (l) => sanitize(l.owner), style: () => "yellow", max: 20, drop: 0 },
    { title: "CLIENT", cell: (l) => l.client, max: 11, drop: 3, wideOnly: true },
    {
      title: "ENDED",
      cell: (l) => `${l.ended ? "" : "seen "}${formatAge(now - l.at)} ago`,
      max: 14,
      align: "right",
      drop: 1,
    },
    { title: "TASK", cell: (l) => sanitize(l.task ?? "-"), style: () => "dim", max: 40, drop: 2 },
  ];
}

/** One hunk of a file shared by lines (decision 0061): its file, place, size and authors. */
export interface BoardLineRow {
  path: string;
  where: string;
  change: string;
  by: string;
}

export function lineColumns(): Column<BoardLineRow>[] {
  return [
    { title: "PATH", cell: (r) => sanitize(r.path), max: 200, flex: true, keepEnd: true, drop: 0 },
    { title: "LINES", cell: (r) => r.where, max: 16, drop: 0 },
    { title: "+/-", cell: (r) => r.change, max: 11, align: "right", drop: 2 },
    { title: "BY", cell: (r) => sanitize(r.by), style: () => "bold", max: 60, drop: 0 },
  ];
}

export function subagentColumns(): Column<SubagentRow>[] {
  const problem = (r: SubagentRow): Style | undefined => (r.problem ? "red" : undefined);
  return [
    { title: "NAME", cell: (r) => sanitize(r.name), style: () => "bold", max: 20, drop: 0 },
    { title: "PARENT", cell: (r) => sanitize(r.parent ?? "-"), max: 16, drop: 3, wideOnly: true },
    { title: "CLIENT", cell: (r) => r.client, max: 11, drop: 4, wideOnly: true },
    {
      title: "STATE",
      cell: (r) => r.state,
      style: (r) => (r.running ? "green" : problem(r)),
      max: 12,
      drop: 0,
    },
    { title: "CAPTURE", cell: (r) => sanitize(r.capture), style: problem, max: 60, flex: true, drop: 0 },
    { title: "APPLY", cell: (r) => r.apply, style: problem, max: 28, drop: 2 },
  ];
}

export function eventColumns(): Column<BoardEvent>[] {
  return [
    { title: "TIME", cell: (e) => clock(e.ts), style: () => "dim", max: 8, drop: 3, wideOnly: true },
    { title: "WHO", cell: (e) => sanitize(e.who), max: 20, drop: 2 },
    { title: "KIND", cell: (e) => e.kind, style: (e) => TONE_STYLE[e.tone], max: 17, drop: 0 },
    { title: "DETAIL", cell: (e) => sanitize(e.detail), max: 300, flex: true, drop: 0 },
  ];
}

/** Other checkouts' sessions and the leases: marked remote by the machine they run on. */
export function remoteColumns(): Column<BoardRemoteRow>[] {
  return [
    // The machine is what marks a row as remote: never dropped, clipped at its start.
    { title: "MACHINE", cell: (r) => sanitize(r.machine), max: 28, keepEnd: true, drop: 0 },
    {
      title: "WHO",
      cell: (r) => sanitize(r.who),
      style: (r) => (r.kind === "lease" ? "cyan" : "bold"),
      max: 20,
      drop: 0,
    },
    { title: "BRANCH", cell: (r) => sanitize(r.branch), max: 16, drop: 4, wideOnly: true },
    { title: "PATHS", cell: (r) => sanitize(r.paths), max: 200, flex: true, drop: 0 },
    { title: "TASK", cell: (r) => sanitize(r.task), style: () => "dim", max: 30, drop: 5 },
    { title: "SEEN", cell: (r) => r.when, max: 14, align: "right", drop: 3 },
  ];
}
