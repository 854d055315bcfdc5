/**
 * A hook that failed because the disk is full (decision 0065). Every refusal then names the disk;
 * a call that only frees space — an `rm` (or Cursor's Delete) of files, `tandem gc` — lets the
 * store's reserve go and is judged again by the usual gates, so a peer's file is still refused.
 */
import type { HookInput, Verdict } from "../clients/types.js";
import { freeingCommand } from "../core/guards/frees-space.js";
import { diskFull, releaseReserve } from "../store/disk-reserve.js";
import { StoreError } from "../store/failure.js";
import { shellCommandOf } from "../targets/tool-targets.js";

/** The failure as a full disk's when the disk holding the store has no room (SQLite may say only IOERR). */
export function asDiskFull(store: StoreError | null, stateDir: string | null): StoreError | null {
  if (!store || store.problem === "full" || !stateDir || !diskFull(stateDir)) return store;
  return new StoreError("full", store.file, store.detail, false, store.blocked);
}

/** Whether the tool call does nothing but remove files or run `tandem gc`. */
export function freesSpaceOnly(input: HookInput): boolean {
  const tool = input.tool;
  if (!tool) return false;
  if (tool.name === "Delete") return true;
  const command = shellCommandOf(tool);
  return command !== null && freeingCommand(command) !== null;
}

/**
 * Judges a freeing call again once the reserve is gone; null when the call frees nothing or the
 * retry failed too (the caller then refuses, naming the disk).
 */
export async function retryFreeing(
  input: HookInput,
  stateDir: string,
  judge: () => Promise<Verdict>,
): Promise<Verdict | null> {
  if (!freesSpaceOnly(input)) return null;
  // Gone already (an earlier freeing call took it): what it freed may still be there.
  releaseReserve(stateDir);
  try {
    return await judge();
  } catch {
    return null;
  }
}
