import { Command } from "commander";
import type { Printer } from "../../core/printed.js";
import { retentionPolicy } from "../../core/upkeep/policy.js";
import { parseAge } from "../../core/upkeep/retention.js";
import { UsageError } from "../../errors.js";
import { type Db, dbFile } from "../../store/db.js";
import { diskFull, ensureReserve, releaseReserve } from "../../store/disk-reserve.js";
import { StoreError, storeErrorOf } from "../../store/failure.js";
import { recordStoreFailure } from "../../store/failure-log.js";
import { auditStore } from "../../store/trust.js";
import { type GcReport, runGc } from "../../store/upkeep/gc.js";
import { findProject, type Io, openProjectDb, type Project } from "../context.js";
import { formatGc } from "../format/gc.js";
import { provenPrinter } from "../printer.js";

interface GcOptions {
  dryRun?: boolean;
  olderThan?: string;
  vacuum?: boolean;
  auto?: boolean;
  json?: boolean;
  root?: string;
}

export const DEFAULT_RETENTION = "30d";

/** gc yields the CPU to agents' hooks: it can take a minute, they must answer in a fraction of a second. */
function yieldCpu(): void {
  try {
    process.getBuiltinModule("node:os").setPriority(15);
  } catch {
    // Not permitted here: gc's short slices still let hooks in.
  }
}

/**
 * `--auto`: the background upkeep a session-start hook starts (docs/decisions/0012): the
 * store's full structural check, marking it corrupt on damage so every gate closes, then
 * `store.autoGc` if set. Quiet: nobody reads its output.
 */
function upkeep(project: Project): void {
  const file = dbFile(project.stateDir);
  const record = (err: StoreError) =>
    recordStoreFailure(project.stateDir, err, { source: "gc --auto", session: null, failed: "closed" });
  let db: Db | null = null;
  try {
    db = openProjectDb(project, { create: false });
    if (!db) return;
    const problem = auditStore(db);
    if (problem) return void record(new StoreError("corrupt", file, problem, true));
    if (project.loaded.config.autoGc)
      runGc(db, {
        stateDir: project.stateDir,
        olderThanMs: parseAge(DEFAULT_RETENTION)!,
        dryRun: false,
        policy: retentionPolicy(project.loaded.config),
      });
  } catch (err) {
    // Damage the check itself trips over is damage found: marked, so every gate closes.
    const store = storeErrorOf(err, file);
    if (store) record(store);
    else throw err;
  } finally {
    db?.close();
  }
}

export function gcCommand(io: Io): Command {
  return new Command("gc")
    .description("Compact old history and delete what nothing references any more")
    .option("--dry-run", "say what would be freed, change nothing")
    .option("--older-than <age>", "keep everything newer than this: 30d, 12h, 90m", DEFAULT_RETENTION)
    .option("--vacuum", "also rewrite the whole store to shrink it (blocks hooks while it runs)")
    .option("--auto", "the daily background upkeep a session start runs (not for people)")
    .option("--json", "print the report as JSON")
    .addHelpText(
      "after",
      `
Ended sessions older than the bound keep one summary event each (name, client, task, counts, the
claim history); live, stale and recent sessions keep everything. Sub-agent artifacts go once
applied and removed that long ago; preserved bytes once their owner ended that long ago. Saved
versions beyond the retention.* bounds go too (per file, per session, per repository; each file's
latest and a version a clobber replaced stay). A blob any record references is never deleted. Safe while agents work: it writes in short slices.

Example:
  tandem gc --dry-run --older-than 14d
`,
    )
    .action((_o: GcOptions, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GcOptions>();
      const project = findProject(io, opts.root);
      if (!opts.dryRun) yieldCpu();
      if (opts.auto) return upkeep(project);
      const olderThanMs = parseAge(opts.olderThan ?? DEFAULT_RETENTION);
      if (olderThanMs === null)
        throw new UsageError(
          `--older-than ${JSON.stringify(opts.olderThan)} is not an age; write a number and d, h or m, e.g. 30d.`,
        );
      const run = (): { report: GcReport; printer: Printer } | null => {
        const db = openProjectDb(project, { create: false });
        if (!db) return null;
        try {
          const report = runGc(db, {
            stateDir: project.stateDir,
            olderThanMs,
            dryRun: opts.dryRun === true,
            fullVacuum: opts.vacuum === true && opts.dryRun !== true,
            policy: retentionPolicy(project.loaded.config),
          });
          return { report, printer: provenPrinter(db, io, project) };
        } finally {
          db.close();
        }
      };
      const done = withRoomOnFullDisk(project.stateDir, run);
      if (!done) {
        io.out("tandem gc: no store yet in this repository; nothing to do.\n");
        return;
      }
      ensureReserve(project.stateDir);
      const { report, printer } = done;
      io.out(
        opts.json
          ? `${JSON.stringify(report, null, 2)}
`
          : formatGc(report, printer),
      );
    });
}

/**
 * gc is what frees a full disk, and a full disk leaves SQLite no room even to read: on such a
 * failure the store's reserve is let go and gc runs again (decision 0065).
 */
function withRoomOnFullDisk<T>(stateDir: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (!diskFull(stateDir) || !releaseReserve(stateDir)) throw err;
    return run();
  }
}
