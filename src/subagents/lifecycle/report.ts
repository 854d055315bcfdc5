import { describeWiring } from "../../core/guards/wiring.js";
import { type Printer, spanned } from "../../core/printed.js";
import { describeUncaptured } from "../apply/preflight.js";
import type { ApplyOutcome } from "../apply/types.js";
import type { CaptureWiring } from "../apply/wiring.js";
import { inProgressAdvice, inProgressLabel } from "../capture/operation.js";
import { short } from "../shared/ids.js";
import type { ApplyRecord, CaptureRecord, SubRecord } from "../shared/records.js";

/** The `capture` object of `sub run --json` (docs/product.md §11). */
export function captureJson(c: CaptureRecord | null) {
  if (!c) return null;
  return {
    id: c.id,
    commitCount: c.commitCount,
    hadUncommittedChanges: c.hadUncommittedChanges,
    worktreePatchBytes: c.patchBytes,
    uncaptured: c.uncaptured.map((u) => ({ reason: u.reason, paths: u.paths })),
  };
}

/** Exactly the keys of docs/product.md §11 for `sub run --json`. */
export function runJson(sub: SubRecord, c: CaptureRecord | null, applied: ApplyOutcome | null) {
  return {
    id: sub.id,
    name: sub.name,
    branch: sub.branch,
    worktree: sub.worktree,
    base: sub.base,
    head: c?.head ?? null,
    childExitCode: sub.exitCode,
    capture: captureJson(c),
    applied,
  };
}

/** How a command names a sub-agent: its --name when given, else its id (printed() quotes it). */
export function subRef(sub: Pick<SubRecord, "id" | "name">): string {
  return sub.name ?? sub.id;
}

/** How the child ended, in words. */
export function exitText(sub: SubRecord, running: boolean): string {
  if (sub.removal) return sub.removal;
  if (!sub.exited) return running ? "running" : "ended (exit not recorded)";
  switch (sub.exitReason) {
    case "spawn-failed":
      return `failed to start${sub.exitMessage ? `: ${sub.exitMessage}` : ""}`;
    case "timeout":
      return "timed out and was stopped";
    case "interrupted":
      return `interrupted${sub.exitSignal ? ` (${sub.exitSignal})` : sub.exitCode !== null ? ` (exit ${sub.exitCode})` : ""}`;
    case "signal":
      return `killed by ${sub.exitSignal}`;
    default:
      return `exited with ${sub.exitCode}`;
  }
}

/** Why a capture is not finished work: an operation the child stopped in, conflict markers. */
function incompleteLines(c: CaptureRecord, sub: SubRecord, p: Printer): string[] {
  const lines: string[] = [];
  if (c.inProgress) {
    const advice = inProgressAdvice(c.inProgress, sub.worktree, sub.id, sub.branch, p);
    lines.push(`INCOMPLETE ${advice}; \`sub apply\` refuses it without --allow-in-progress`);
  }
  if (c.conflictMarkers.length > 0) {
    lines.push(
      `CONFLICT MARKERS in the uncommitted patch: ${c.conflictMarkers.join(", ")}; \`sub apply\` refuses them without --allow-conflict-markers`,
    );
  }
  return lines;
}

/** What a capture holds and what it does not (docs/product.md §7.5). */
export function captureLines(c: CaptureRecord | null, sub: SubRecord, p: Printer): string[] {
  if (!c) return [`captured   nothing yet (run ${spanned(p, "sub", "capture", sub.id)})`];
  const held = [
    `${c.commitCount} commit(s)`,
    c.patchBlob ? `uncommitted changes (${c.patchBytes} bytes of patch)` : "no uncommitted changes",
  ];
  const lines = [
    `captured   capture ${c.number}: ${held.join(", ")}; the child ended ${c.hadUncommittedChanges ? "dirty" : "clean"}`,
  ];
  if (c.uncaptured.length > 0) lines.push(`NOT captured: ${describeUncaptured(c.uncaptured)}`);
  return [...lines, ...incompleteLines(c, sub, p)];
}

/** What a capture does to Tandem's wiring, when anything: apply needs a person's --allow-config. */
export function wiringLines(w: CaptureWiring): string[] {
  if (w.error !== null) return [`wiring     could not be checked: ${w.error}`];
  if (w.changes.length === 0) return [];
  return [
    `WIRING     changes Tandem's wiring: ${describeWiring(w.changes)}; \`sub apply\` refuses it without --allow-config`,
  ];
}

/** One target's apply state (docs/product.md §7.5). */
export function applyLine(a: ApplyRecord, latest: string | null): string {
  const stale = latest !== null && a.captureId !== latest ? " (an older capture)" : "";
  switch (a.stage) {
    case "completed":
      return `${a.target}: applied${stale}, HEAD ${short(a.postHead)}${a.ackPartial ? ", finished by hand" : ""}${a.ackUncaptured ? ", without uncaptured work" : ""}`;
    case "blocked":
      return `${a.target}: BLOCKED${a.paths.length ? ` (conflicts in ${a.paths.join(", ")})` : ""}; resolve, then apply --acknowledge-partial`;
    case "failed":
      return `${a.target}: last apply failed: ${a.message ?? "see tandem events"}`;
    default:
      return `${a.target}: interrupted at ${a.stage}${stale}; run apply again to continue`;
  }
}

export function showText(
  sub: SubRecord,
  running: boolean,
  c: CaptureRecord | null,
  applies: readonly ApplyRecord[],
  wiring: CaptureWiring,
  p: Printer,
): string {
  const lines = [
    `${sub.id}${sub.name ? ` "${sub.name}"` : ""} — ${sub.client} child ${exitText(sub, running)}`,
    `worktree   ${sub.worktree}${sub.removal ? " (gone)" : ""}`,
    `branch     ${sub.branch} from ${short(sub.base)} (${sub.baseRef})`,
    `command    ${sub.args.join(" ")}`,
    `log        ${sub.log}`,
    ...captureLines(c, sub, p),
    ...wiringLines(wiring),
    ...(applies.length
      ? applies.map((a) => `target     ${applyLine(a, c?.id ?? null)}`)
      : ["target     not applied anywhere yet"]),
  ];
  return `${lines.join("\n")}\n`;
}

export function applyText(o: ApplyOutcome): string {
  const lines = [`${o.id} → ${o.target}: ${o.message}`];
  for (const w of o.warnings) lines.push(`warning: ${w}`);
  return `${lines.join("\n")}\n`;
}

/** Bytes as a person reads them. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** One capture in a list row: sizes, then anything that keeps it from being clean work. */
function captureShort(c: CaptureRecord): string {
  const held = [`${c.commitCount} commit${c.commitCount === 1 ? "" : "s"}`];
  if (c.patchBlob) held.push(`${sizeText(c.patchBytes)} uncommitted`);
  const flags = [
    c.uncaptured.length ? ", NOT all captured" : "",
    c.inProgress ? `, INCOMPLETE (${inProgressLabel(c.inProgress)})` : "",
    c.conflictMarkers.length ? ", conflict markers" : "",
  ];
  return `${held.join(" + ")}${flags.join("")}`;
}

/** Left-aligned columns under a header, two spaces apart; the last column is not padded. */
export function columns(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  const line = (r: readonly string[]) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return `${all.map(line).join("\n")}\n`;
}

export function listText(
  rows: readonly {
    sub: SubRecord;
    running: boolean;
    capture: CaptureRecord | null;
    applies: ApplyRecord[];
  }[],
  p: Printer,
): string {
  if (rows.length === 0)
    return `no sub-agents; start one with ${spanned(p, "sub", "run", "--", { slot: "COMMAND" })}\n`;
  const cells = rows.map(({ sub, running, capture, applies }) => {
    const cap = capture ? `${capture.number}: ${captureShort(capture)}` : "none";
    const done = applies.filter((a) => a.stage === "completed").length;
    const open = applies.length - done;
    const applied = `${done} target${done === 1 ? "" : "s"}${open ? `, ${open} open` : ""}`;
    return [sub.id, sub.name ?? "-", exitText(sub, running), cap, applied];
  });
  return columns(["ID", "NAME", "CHILD", "CAPTURE", "APPLIED"], cells);
}
