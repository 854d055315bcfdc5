import type { SubagentRow } from "../../core/ui/board-rows.js";
import type { SessionView } from "../../sessions/view.js";
import type { Db } from "../../store/db.js";
import { subRunning } from "../apply/apply.js";
import {
  type ApplyRecord,
  appliesOf,
  type CaptureRecord,
  latestCapture,
  presentSubs,
  type SubRecord,
} from "../shared/records.js";
import { sizeText } from "./report.js";

export type { SubagentRow };

function stateText(sub: SubRecord, running: boolean): string {
  if (!sub.exited) return running ? "running" : "gone";
  switch (sub.exitReason) {
    case "spawn-failed":
      return "no start";
    case "timeout":
      return "timed out";
    case "interrupted":
      return "interrupted";
    case "signal":
      return sub.exitSignal ?? "killed";
    default:
      return `exit ${sub.exitCode ?? "?"}`;
  }
}

function captureText(c: CaptureRecord | null): string {
  if (!c) return "not captured yet";
  if (!c.ok) return `capture ${c.number} FAILED`;
  const parts = [`${c.commitCount} commit${c.commitCount === 1 ? "" : "s"}`];
  if (c.patchBlob) parts.push(`${sizeText(c.patchBytes)} uncommitted`);
  const missing =
    c.uncaptured.length > 0 ? `, NOT captured: ${c.uncaptured.map((u) => u.reason).join(", ")}` : "";
  return `${parts.join(" + ")}${missing}`;
}

function applyText(applies: readonly ApplyRecord[], latest: string | null): string {
  if (applies.length === 0) return "not applied";
  const worst =
    applies.find((a) => a.stage === "blocked") ??
    applies.find((a) => a.stage === "failed") ??
    applies.find((a) => a.stage !== "completed");
  const more = applies.length > 1 ? ` (${applies.length} targets)` : "";
  if (worst?.stage === "blocked") return `BLOCKED${more}`;
  if (worst?.stage === "failed") return `failed${more}`;
  if (worst) return `interrupted at ${worst.stage}${more}`;
  const older = applies.some((a) => a.captureId !== latest) ? ", older capture" : "";
  return `applied${older}${more}`;
}

/** One `tandem sub` child's row; the browser board pairs it with the id to open its artifacts. */
export function recordRow(db: Db, sub: SubRecord, names: ReadonlyMap<string, string>): SubagentRow {
  const running = subRunning(sub);
  const capture = latestCapture(db, sub);
  const applies = appliesOf(db, sub.id);
  const stuck = applies.some((a) => a.stage === "blocked" || a.stage === "failed");
  const failed = sub.exited && (sub.exitReason !== "exited" || sub.exitCode !== 0);
  return {
    name: sub.name ?? sub.id,
    parent: sub.parentSession ? (names.get(sub.parentSession) ?? sub.parentSession) : null,
    client: sub.client,
    state: stateText(sub, running),
    capture: running && !capture ? "-" : captureText(capture),
    apply: applyText(applies, capture?.id ?? null),
    running,
    problem: stuck || failed || (capture !== null && (!capture.ok || capture.uncaptured.length > 0)),
  };
}

function sessionRow(s: SessionView, names: ReadonlyMap<string, string>): SubagentRow {
  return {
    name: s.name,
    parent: s.parentId ? (names.get(s.parentId) ?? s.parentId) : null,
    client: s.client,
    state: s.ended ? "ended" : s.live ? "running" : "stale",
    capture: "-",
    apply: "-",
    running: s.live,
    problem: false,
  };
}

/**
 * Sub-agents for the board: every present `tandem sub` child with its latest
 * capture and apply state, plus sub-agent sessions no `tandem sub` record
 * accounts for (a client's own sub-agents), which have no artifacts to show.
 */
export function subagentRows(db: Db, sessions: readonly SessionView[]): SubagentRow[] {
  const names = new Map(sessions.map((s) => [s.id, s.name]));
  const subs = presentSubs(db);
  const recorded = new Set(subs.map((s) => s.childSession).filter((id): id is string => id !== null));
  const loose = sessions.filter((s) => s.kind === "subagent" && !recorded.has(s.id) && !s.ended);
  return [...subs.map((s) => recordRow(db, s, names)), ...loose.map((s) => sessionRow(s, names))];
}
