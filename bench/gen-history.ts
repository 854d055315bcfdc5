// The generator `bench/history.mjs` bundles and runs: `node gen.cjs STATE_DIR [SESSIONS] [WORKTREE]` appends a
// generated year (test/helpers/year-gen.ts) to the store in STATE_DIR through its own append path. The
// generator writes its year under a fixed worktree path; WORKTREE moves it to the measured checkout, so
// what a year leaves behind in the checkout (claim history, touched paths) is read by its hooks.
import { join } from "node:path";
import { DEFAULT_CONFIG } from "../src/config/schema.js";
import { retentionPolicy } from "../src/core/upkeep/policy.js";
import type { Db } from "../src/store/db.js";
import { openDb } from "../src/store/db.js";
import { raw } from "../src/store/handle.js";
import { runGc } from "../src/store/upkeep/gc.js";
import { GEN_WORKTREE, generateHistory, yearShape } from "../test/helpers/year-gen.js";

const [stateDir, sessions, worktree] = process.argv.slice(2);
if (!stateDir) throw new Error("usage: gen-history STATE_DIR [SESSIONS] [WORKTREE]");
const db = openDb(stateDir);
// A generator may lose its work in a crash: it only has to be fast.
raw(db).pragma("synchronous = OFF");
const shape = yearShape();
if (sessions) shape.sessions = Number(sessions);
const started = Date.now();
const made = generateHistory(db, join(stateDir, "blobs"), shape);
const moved = worktree ? moveWorktree(db, GEN_WORKTREE, worktree) : 0;
// The retention policy in force over the year (decision 0065, the default retention.* bounds): a
// gc whose age bound no session reaches, so it only lets go the saved versions the policy no
// longer needs, recording them as work.expired, as the policy's runs over the year would have.
const policy = runGc(db, {
  stateDir,
  olderThanMs: 10 * 365 * 86_400_000,
  dryRun: false,
  policy: retentionPolicy(DEFAULT_CONFIG),
});
db.close();
const { keptVersions, clobbers } = made;
const retention = {
  expired: policy.policyVersions,
  savedBytes: policy.savedBytes,
  over: policy.sessionsOver.length,
};
process.stdout.write(
  `${JSON.stringify({ events: made.events, sessions: made.sessions.length, blobBytes: made.blobBytes, keptVersions, clobbers, retention, moved, ms: Date.now() - started })}\n`,
);

/**
 * Rewrites `from` to `to` in every text column of every table (projections, events' JSON, sessions'
 * cwd), as if the year had been lived in `to`. Read from the schema, so a new table or column is
 * moved too. Returns the number of cells changed.
 */
function moveWorktree(db: Db, from: string, to: string): number {
  const tables = raw(db)
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all() as {
    name: string;
  }[];
  let changed = 0;
  raw(db).transaction(() => {
    for (const { name } of tables) {
      const columns = raw(db).prepare(`SELECT name, type FROM pragma_table_info(?)`).all(name) as {
        name: string;
        type: string;
      }[];
      for (const c of columns.filter((x) => x.type.toUpperCase() === "TEXT")) {
        const sql = `UPDATE "${name}" SET "${c.name}" = replace("${c.name}", ?, ?) WHERE instr("${c.name}", ?) > 0`;
        changed += raw(db).prepare(sql).run(from, to, from).changes;
      }
    }
  })();
  return changed;
}
