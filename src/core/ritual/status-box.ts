import { type LeftItem, ownerPhrase } from "../claims/left-work.js";
import type { GuardMode } from "../guard-mode.js";
import { plural } from "../plural.js";
import { PLAIN, type Printer, spanned } from "../printed.js";
import { formatAge } from "../sessions/liveness.js";

export interface StatusModel {
  session: {
    name: string;
    client: string;
    startedAt: number;
    task: string | null;
    activity: string;
    /** The guard in force for its commands (issue 36 §4); absent: not known. */
    guard?: GuardMode;
  };
  claims: string[];
  /** The session's own files (claimed, released or touched) with uncommitted changes, new files included. */
  awaiting: string[];
  /** Owned paths Git ignores, from a passed end-turn check: not Git work, and not finalized. */
  ignored: string[];
  peers: {
    name: string;
    client: string;
    task: string | null;
    claims: number;
    lastSeen: number;
    guard?: GuardMode;
  }[];
  subagents: { name: string; state: string }[];
  warnings: string[];
  /** Uncommitted files of sessions that ended (decision 0029): nobody's until adopted. */
  left?: readonly LeftItem[];
  /** How the box spells commands for whoever ran `status` (src/core/printed.ts). */
  printer?: Printer;
  endTurn: boolean;
  now: number;
}

export const BOX_WIDTH = 72;
const INNER = BOX_WIDTH - 4;
/** The first line of every box starts with this; the Stop hook's rule 3 looks for it. */
export const BOX_HEAD = "+-- tandem status: ";

function clip(text: string, width = INNER): string {
  // Newlines and tabs would break the box; the column padding inside the text must stay.
  const flat = text.replace(/[\r\n\t]+/g, " ");
  return flat.length <= width ? flat : `${flat.slice(0, width - 1)}~`;
}

function row(text: string): string {
  return `| ${clip(text).padEnd(INNER)} |`;
}

/**
 * Rows for a label and text that may not fit one row: continued under the text,
 * never clipped, because warnings end with the command that fixes them.
 */
function wrapped(label: string, text: string): string[] {
  const indent = " ".repeat(label.length);
  const width = INNER - label.length;
  const lines: string[] = [];
  let line = "";
  for (const word of text
    .replace(/[\r\n\t]+/g, " ")
    .split(" ")
    .filter(Boolean)) {
    // A word longer than a row (a long path) is split rather than clipped.
    for (let rest = word; rest.length > 0; rest = rest.slice(width)) {
      const piece = rest.slice(0, width);
      if (line && line.length + 1 + piece.length <= width) line += ` ${piece}`;
      else {
        if (line) lines.push(line);
        line = piece;
      }
    }
  }
  lines.push(line);
  return lines.map((l, i) => row(`${i === 0 ? label : indent}${l}`));
}

function list(items: string[], max: number): string {
  if (items.length === 0) return "none";
  const shown = items.slice(0, max).join(", ");
  return items.length > max ? `${shown} (+${items.length - max} more)` : shown;
}

/** Plain words for a person: what of the session's own work git does not hold yet. */
function uncommitted(m: StatusModel): string {
  if (m.awaiting.length > 0) return `${m.awaiting.length} not committed yet: ${list(m.awaiting, 3)}`;
  return m.endTurn ? "all committed" : "none uncommitted";
}

/** The fixed-width, plain-text status box (docs/product.md §8). */
/** An agent adopts left work to continue it; a person (who cannot adopt) may throw it away. */
function leftHint(path: string, p: Printer): string {
  return p.reader === "agent"
    ? `${spanned(p, "adopt", { path })} to continue it`
    : `${spanned(p, "discard", { path }, "--yes")} to throw it away, or an agent adopts it`;
}

/** The guard row: the session's guard, then each peer's (issue 36 §4); none when not known. */
function guardRows(m: StatusModel): string[] {
  if (!m.session.guard) return [];
  const peers = m.peers.filter((p) => p.guard).map((p) => `${p.name} ${p.guard}`);
  return [row(`guard    ${m.session.guard}${peers.length ? `; peers: ${peers.join(", ")}` : ""}`)];
}

export function renderStatusBox(m: StatusModel): string {
  const head = `${BOX_HEAD}${m.session.name} `;
  const lines = [
    `${head}${"-".repeat(Math.max(2, BOX_WIDTH - head.length - 1))}+`,
    row(
      `session  ${m.session.name} (${m.session.client}), ${formatAge(m.now - m.session.startedAt)} old, ${m.session.activity}`,
    ),
    ...guardRows(m),
    row(`task     ${m.session.task ? m.session.task : "(none declared)"}`),
    row(`claims   ${m.claims.length}: ${list(m.claims, 4)}`),
    row(`changes  ${uncommitted(m)}`),
    ...(m.ignored.length ? [row(`ignored  ${m.ignored.length}, not finalized: ${list(m.ignored, 3)}`)] : []),
    row(`peers    ${m.peers.length === 0 ? "none live" : ""}`),
    ...m.peers
      .slice(0, 6)
      .map((p) =>
        row(
          `  ${p.name} (${p.client}) ${plural(p.claims, "claim")}, seen ${formatAge(m.now - p.lastSeen)} ago: ${p.task ?? "no task"}`,
        ),
      ),
    ...(m.subagents.length
      ? [row("subagents"), ...m.subagents.map((s) => row(`  ${s.name}: ${s.state}`))]
      : []),
    ...(m.left ?? []).flatMap((i) =>
      wrapped(
        "left     ",
        `${i.path}: ${ownerPhrase(i.owner, m.now)}; ${leftHint(i.path, m.printer ?? PLAIN)}`,
      ),
    ),
    ...m.warnings.flatMap((w) => wrapped("warning  ", w)),
    ...(m.endTurn ? [row("pushed   yes (end-turn check passed): own work committed and pushed")] : []),
    `+${"-".repeat(BOX_WIDTH - 2)}+`,
  ];
  return `${lines.join("\n")}\n`;
}

/** Whether a reply contains a status box (Claude's rule 3). */
export function containsStatusBox(text: string | null): boolean {
  return text?.includes(BOX_HEAD) ?? false;
}
