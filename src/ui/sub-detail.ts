import { join } from "node:path";
import { type Printer, printed } from "../core/printed.js";
import { type MboxCommit, splitMbox } from "../core/ui/mbox.js";
import type { SubDetail } from "../core/ui/protocol.js";
import { readBlob } from "../store/blobs/files.js";
import type { Db } from "../store/db.js";
import { recordRow } from "../subagents/lifecycle/rows.js";
import { appliesOf, captureById, type SubRecord, subById } from "../subagents/shared/records.js";

/** Larger artifacts are cut: a browser tab is no place for a 50 MB diff, and the CLI has it all. */
const MAX_BYTES = 2_000_000;

function blobText(stateDir: string, sha: string | null): string | null {
  if (!sha) return null;
  try {
    const bytes = readBlob(join(stateDir, "blobs"), sha);
    const text = bytes.subarray(0, MAX_BYTES).toString("utf8");
    return bytes.length > MAX_BYTES ? `${text}\n… cut at ${MAX_BYTES} bytes of ${bytes.length}\n` : text;
  } catch (err) {
    return `(artifact ${sha.slice(0, 12)} unreadable: ${(err as Error).message.split("\n")[0]})`;
  }
}

function exitText(sub: SubRecord): string {
  if (!sub.exited) return "still running";
  const code = sub.exitCode === null ? "" : ` with code ${sub.exitCode}`;
  const signal = sub.exitSignal ? ` by ${sub.exitSignal}` : "";
  return `${sub.exitReason ?? "exited"}${code}${signal}${sub.exitMessage ? `: ${sub.exitMessage}` : ""}`;
}

/** One sub-agent's artifacts for the Sub-agents view: commits, uncommitted patch, where applied. */
/** `printer` spells the apply command for the board's reader: a person at their terminal. */
export function subDetail(db: Db, stateDir: string, id: string, printer: Printer): SubDetail | null {
  const sub = subById(db, id);
  if (!sub) return null;
  const row = recordRow(db, sub, new Map());
  const capture = sub.latestCapture ? captureById(db, sub.latestCapture) : null;
  const mbox = blobText(stateDir, capture?.mboxBlob ?? null);
  const commits: MboxCommit[] = mbox ? splitMbox(mbox) : [];
  return {
    id: sub.id,
    name: sub.name ?? sub.id,
    branch: sub.branch,
    worktree: sub.worktree,
    state: row.state,
    exit: exitText(sub),
    capture: capture ? row.capture : null,
    commits,
    patch: blobText(stateDir, capture?.patchBlob ?? null),
    applies: appliesOf(db, sub.id).map((a) => ({
      target: a.target,
      stage: a.stage,
      detail: a.message ?? `${a.commitsApplied} commit(s)${a.patchApplied ? " + patch" : ""}`,
    })),
    applyCommand: printed(printer, "sub", "apply", sub.id),
  };
}
