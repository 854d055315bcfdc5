import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../../config/schema.js";
import type { Printer } from "../../core/printed.js";
import type { Db } from "../../store/db.js";

/** What every sub-agent operation needs: the store, where bytes live, and the config. */
export interface SubCtx {
  db: Db;
  stateDir: string;
  blobsDir: string;
  /** Temporary files and dry-run worktrees; inside the state dir so renames stay on one filesystem. */
  scratchDir: string;
  config: Config;
  root: string;
  /** The session events are attributed to (the caller), when one is known. */
  session: string | null;
  /** How messages spell Tandem's commands for the caller (decision 0051). */
  printer: Printer;
}

export function makeSubCtx(
  db: Db,
  stateDir: string,
  config: Config,
  root: string,
  session: string | null,
  printer: Printer,
): SubCtx {
  return {
    db,
    stateDir,
    blobsDir: join(stateDir, "blobs"),
    scratchDir: join(stateDir, "tmp"),
    config,
    root,
    session,
    printer,
  };
}

/** The scratch directory, created on first use. */
export function scratchDirOf(ctx: SubCtx): string {
  mkdirSync(ctx.scratchDir, { recursive: true });
  return ctx.scratchDir;
}
