import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { type Printer, spanned } from "../../core/printed.js";
import { short } from "../shared/ids.js";

export type { ChildOperation, InProgress } from "../../store/subagents/types.js";

import type { ChildOperation, InProgress } from "../../store/subagents/types.js";

/**
 * The state files of the worktree's git dir, by path relative to it: the file's text (a
 * directory reads as ""), or null when absent. Every operation keeps its state per worktree.
 */
export type OperationFiles = Readonly<Record<string, string | null>>;

export const OPERATION_FILES: readonly string[] = [
  "rebase-apply",
  "rebase-apply/applying",
  "rebase-apply/head-name",
  "rebase-apply/onto",
  "rebase-apply/orig-head",
  "rebase-apply/original-commit",
  "rebase-merge",
  "rebase-merge/head-name",
  "rebase-merge/onto",
  "rebase-merge/orig-head",
  "rebase-merge/stopped-sha",
  "REBASE_HEAD",
  "MERGE_HEAD",
  "CHERRY_PICK_HEAD",
  "REVERT_HEAD",
  "sequencer",
  "sequencer/todo",
  "BISECT_LOG",
  "BISECT_START",
];

/** Reads OPERATION_FILES under `gitDir`; unreadable state reads as present but empty. */
export function readOperationFiles(gitDir: string): OperationFiles {
  const out: Record<string, string | null> = {};
  for (const rel of OPERATION_FILES) {
    const file = join(gitDir, rel);
    try {
      out[rel] = statSync(file).isDirectory() ? "" : readFileSync(file, "utf8").trim();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // Present but unreadable still means an operation is in progress: never read it as clean.
      out[rel] = code === "ENOENT" || code === "ENOTDIR" ? null : "";
    }
  }
  return out;
}

const firstLine = (v: string | null | undefined): string | null => {
  const line = v?.split("\n")[0]?.trim();
  return line ? line : null;
};

/** `refs/heads/x` as `x`; `detached HEAD` and unknown as null. */
function branchName(v: string | null | undefined): string | null {
  const line = firstLine(v);
  if (!line?.startsWith("refs/")) return null;
  return line.replace(/^refs\/heads\//, "");
}

function rebase(f: OperationFiles, dir: "rebase-apply" | "rebase-merge", conflicted: string[]): InProgress {
  const stopped = dir === "rebase-merge" ? f["rebase-merge/stopped-sha"] : f["rebase-apply/original-commit"];
  return {
    operation: "rebase",
    branch: branchName(f[`${dir}/head-name`]),
    onto: firstLine(f[`${dir}/onto`]),
    origHead: firstLine(f[`${dir}/orig-head`]),
    incoming: firstLine(f.REBASE_HEAD) ?? firstLine(stopped),
    conflicted,
  };
}

/** `pick`/`revert` on the sequencer's next line says which multi-commit operation it is. */
function sequencerKind(todo: string | null | undefined): ChildOperation {
  const cmd = firstLine(todo)?.split(/\s/)[0];
  if (cmd === "revert") return "revert";
  if (cmd === "pick" || cmd === "p") return "cherry-pick";
  return "sequencer";
}

/**
 * Which operation the state files show, the one holding the index first (git status reads them
 * the same way): am before rebase (both use rebase-apply/), bisect last, as it can wrap the others.
 */
export function operationFrom(f: OperationFiles, conflicted: readonly string[]): InProgress | null {
  const blank = { branch: null, onto: null, origHead: null, incoming: null, conflicted: [...conflicted] };
  if (f["rebase-apply"] != null) {
    if (f["rebase-apply/applying"] != null) return { ...blank, operation: "am" };
    return rebase(f, "rebase-apply", blank.conflicted);
  }
  if (f["rebase-merge"] != null) return rebase(f, "rebase-merge", blank.conflicted);
  if (f.MERGE_HEAD != null) return { ...blank, operation: "merge", incoming: firstLine(f.MERGE_HEAD) };
  if (f.CHERRY_PICK_HEAD != null) {
    return { ...blank, operation: "cherry-pick", incoming: firstLine(f.CHERRY_PICK_HEAD) };
  }
  if (f.REVERT_HEAD != null) return { ...blank, operation: "revert", incoming: firstLine(f.REVERT_HEAD) };
  if (f.sequencer != null) return { ...blank, operation: sequencerKind(f["sequencer/todo"]) };
  if (f.BISECT_LOG != null) return { ...blank, operation: "bisect", branch: firstLine(f.BISECT_START) };
  // A conflict with no operation state (e.g. `git stash pop`) is still not finished work.
  return null;
}

/** A path as a POSIX shell word, quoted only when it needs it. */
function sh(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

const NAMES: Record<ChildOperation, string> = {
  rebase: "git rebase",
  am: "git am",
  merge: "git merge",
  "cherry-pick": "git cherry-pick",
  revert: "git revert",
  bisect: "git bisect",
  sequencer: "git cherry-pick/revert sequence",
};

/** The command word that continues or aborts the operation. */
const VERB: Record<ChildOperation, string> = {
  rebase: "rebase",
  am: "am",
  merge: "merge",
  "cherry-pick": "cherry-pick",
  revert: "revert",
  bisect: "bisect",
  sequencer: "cherry-pick",
};

/** A short label for lists: `rebase in progress onto 1a2b3c4d5e6f, 2 conflicted`. */
export function inProgressLabel(op: InProgress): string {
  const onto = op.onto ? ` onto ${short(op.onto)}` : "";
  const conflicts = op.conflicted.length ? `, ${op.conflicted.length} conflicted` : "";
  return `${op.operation} in progress${onto}${conflicts}`;
}

/** What to do about it, with the exact commands: finish or abort in the child's worktree, capture again. */
export function inProgressAdvice(
  op: InProgress,
  worktree: string,
  subId: string,
  branch: string,
  p: Printer,
): string {
  const g = `git -C ${sh(worktree)}`;
  const conflicts = op.conflicted.length ? ` with conflicts in ${op.conflicted.join(", ")}` : "";
  const parts = [`the child stopped in the middle of a ${NAMES[op.operation]}${conflicts}`];
  if (op.operation === "rebase") {
    const before = op.origHead ? ` (${short(op.origHead)})` : "";
    parts.push(
      `the capture holds the half-rebased detached HEAD; the branch ${op.branch ?? branch} still holds the commits from before the rebase${before}`,
    );
  }
  const verb = VERB[op.operation];
  let todo: string;
  if (op.operation === "bisect") todo = `end it with \`${g} bisect reset\``;
  else {
    const resolve = op.conflicted.length ? `resolve the conflicts, \`${g} add -- <paths>\`, then ` : "";
    todo = `finish it (${resolve}\`${g} ${verb} --continue\`) or abort it (\`${g} ${verb} --abort\`)`;
  }
  parts.push(`${todo} in the child's worktree, then run ${spanned(p, "sub", "capture", subId)} again`);
  return parts.join("; ");
}
