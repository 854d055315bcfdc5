import { isAbsolute, relative } from "node:path";
import { plural } from "../core/plural.js";
import type { TrustReport } from "./codex-trust.js";
import { changed, type FilePlan } from "./plan.js";

/** How init and deinit describe their plans: one line per file, or one JSON object. */

export type RunMode = "write" | "dry-run" | "check";

/** Relative to the root when inside it; the git hooks dir often is not (worktrees, core.hooksPath). */
export function displayPath(root: string, path: string): string {
  const rel = relative(root, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}

const DONE: Record<string, string> = {
  create: "created",
  update: "updated",
  delete: "deleted",
  unchanged: "unchanged",
  keep: "kept",
};
const WOULD: Record<string, string> = {
  create: "would create",
  update: "would update",
  delete: "would delete",
  unchanged: "unchanged",
  keep: "would keep",
};

function detail(p: FilePlan): string {
  if (p.action === "keep") return " (your project settings; delete it yourself if you no longer want it)";
  if (!p.summary) return "";
  return p.action === "update" ? `: ${p.summary}` : ` (${p.summary})`;
}

export function formatSummary(
  root: string,
  plans: readonly FilePlan[],
  command: "init" | "deinit",
  mode: RunMode,
): string {
  const verbs = mode === "dry-run" ? WOULD : DONE;
  const lines = [`tandem ${command}${mode === "dry-run" ? " --dry-run" : ""}: ${root}`];
  for (const p of plans) {
    // Files that do not exist and will not (a local settings file without rules) are not listed.
    if (p.action === "unchanged" && p.after === null) continue;
    lines.push(`  ${verbs[p.action]!.padEnd(12)} ${displayPath(root, p.path)}${detail(p)}`);
  }
  const any = changed(plans).length > 0;
  if (!any)
    lines.push(command === "init" ? "Already up to date." : "Nothing to remove: Tandem is not wired here.");
  else if (mode === "dry-run") lines.push("Dry run: nothing was written.");
  return `${lines.join("\n")}\n`;
}

/** A refusal names its file; shown relative to the root like every other path. */
export function refusalLine(root: string, p: FilePlan): string {
  const reason = p.reason ?? "cannot be handled";
  return reason.startsWith(p.path) ? displayPath(root, p.path) + reason.slice(p.path.length) : reason;
}

/** `--check`: one line per difference, `file: what differs`. */
export function driftLines(root: string, plans: readonly FilePlan[]): string[] {
  const lines: string[] = [];
  for (const p of plans) {
    const file = displayPath(root, p.path);
    if (p.action === "refuse") lines.push(refusalLine(root, p));
    else if (p.action === "create") lines.push(`${file}: missing`);
    else if (p.action === "update") for (const c of p.changes) lines.push(`${file}: ${c}`);
  }
  return lines;
}

/** `init` is how the reader runs init, e.g. `` `npx tandem init` ``. */
export function formatCheck(root: string, plans: readonly FilePlan[], init: string): string {
  const drift = driftLines(root, plans);
  if (drift.length === 0) return `tandem init --check: ${root} is up to date.\n`;
  return `${[...drift, `${plural(drift.length, "difference")}; run ${init} to fix them.`].join("\n")}\n`;
}

export function formatJson(
  root: string,
  plans: readonly FilePlan[],
  command: "init" | "deinit",
  mode: RunMode,
  codexTrust: TrustReport | null,
): string {
  const files = plans.map((p) => ({
    path: displayPath(root, p.path),
    kind: p.kind,
    action: p.action,
    changes: p.changes,
    ...(p.reason === undefined ? {} : { reason: p.reason }),
  }));
  const ok =
    mode === "check" ? driftLines(root, plans).length === 0 : plans.every((p) => p.action !== "refuse");
  return `${JSON.stringify({ command, mode, root, ok, files, codexTrust })}\n`;
}
