import { UsageError } from "../../errors.js";
import type { Db } from "../../store/db.js";
import { type SubRecord, subById, subsNamed } from "../../store/subagents/rows.js";

export type {
  ApplyRecord,
  ApplyStage,
  CaptureRecord,
  PreApply,
  SeriesRecord,
  SubRecord,
} from "../../store/subagents/rows.js";
export {
  allSubs,
  appliesOf,
  applyOf,
  captureById,
  capturesOf,
  latestCapture,
  nameTaken,
  presentSubs,
  recordedPatchPaths,
  subById,
} from "../../store/subagents/rows.js";

/** `ID` on the command line: the sub-agent id, else its `--name` (the newest one still present wins). */
export function findSub(db: Db, ref: string): SubRecord {
  const byId = subById(db, ref);
  if (byId) return byId;
  const named = subsNamed(db, ref);
  const present = named.filter((s) => s.removal === null);
  const pick = present[0] ?? named[0];
  if (!pick)
    throw new UsageError(`no sub-agent has the id or name ${JSON.stringify(ref)}; see \`sub list --all\`.`);
  return pick;
}
