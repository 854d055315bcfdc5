import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../src/config/schema.js";
import { retentionPolicy } from "../../src/core/upkeep/policy.js";
import { ensureSession } from "../../src/sessions/register.js";
import { writeBlob } from "../../src/store/blobs/files.js";
import { openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import { append, write } from "../../src/store/ledger/append.js";
import { rebuildProjections } from "../../src/store/repair/rebuild.js";
import { WATCHED_FILES_SQL, watchedFiles } from "../../src/store/safety/kept.js";
import { runGc } from "../../src/store/upkeep/gc.js";
import { tempDir } from "../helpers/repo.js";
import { GEN_WORKTREE, generateHistory, type HistoryShape } from "../helpers/year-gen.js";

/** A small history whose ended sessions kept versions, trimmed by the retention policy. */
const SHAPE: HistoryShape = {
  sessions: 200,
  pathsPerSession: 5,
  chatterPerSession: 6,
  subagents: 0,
  subagentPatchBytes: 0,
  preserved: 0,
  preservedBytes: 0,
  days: 60,
  endedBeforeMs: 3_600_000,
  kept: { keptFiles: 2, churnEvery: 10, churnVersions: 30, bytes: 64 },
};

/** The history, then one open session that kept a version of a file it holds. */
function store() {
  const stateDir = tempDir();
  const db = openDb(stateDir);
  const blobs = join(stateDir, "blobs");
  const made = generateHistory(db, blobs, SHAPE);
  const gc = runGc(db, {
    stateDir,
    olderThanMs: 10 * 365 * 86_400_000,
    dryRun: false,
    policy: retentionPolicy(DEFAULT_CONFIG),
  });
  const live = write(db, (tx) => {
    const { session } = ensureSession(tx, {
      client: "claude-code",
      nativeId: "live",
      kind: "session",
      parentId: null,
      agentPid: null,
      agentPidStart: null,
      cwd: GEN_WORKTREE,
    });
    const path = "src/live.ts";
    append(tx, {
      kind: "claim.acquired",
      session: session.id,
      data: { worktree: GEN_WORKTREE, path, disposition: "git", root: GEN_WORKTREE },
    });
    const blob = writeBlob(blobs, Buffer.from("live\n"), "copy");
    const data = { worktree: GEN_WORKTREE, path, owner: session.id, version: 1, blob: blob.sha256 };
    append(tx, {
      kind: "work.preserved",
      session: session.id,
      data: { ...data, bytes: blob.bytes, stamp: "5:1:33188:1:1", reason: "owner" },
    });
    return session.id;
  });
  return { db, made, gc, live };
}

describe("the files every hook watches, beside a year of ended owners' versions (issue 37)", () => {
  it("are the open session's only, and the policy's work is in the history they sit beside", () => {
    const { db, made, gc, live } = store();
    expect(made.keptVersions).toBeGreaterThan(SHAPE.sessions * 2);
    expect(made.clobbers).toBeGreaterThan(0);
    // Each churned file's middle versions went (all but its first and last 20), bar the version
    // each clobber replaced: what `tandem recover` gives back stays.
    expect(gc.policyVersions).toBe((SHAPE.sessions / 10) * (30 - 1 - 20) - made.clobbers);
    expect(watchedFiles(db, GEN_WORKTREE).map((r) => [r.owner, r.path, r.version])).toEqual([
      [live, "src/live.ts", 1],
    ]);
    db.close();
  });

  it("are read from the open sessions outward, never by a scan of the worktree's versions", () => {
    const { db } = store();
    // The plan is what keeps a year's ended owners out of every hook's cost; timing is left to the bench.
    const plan = () =>
      (raw(db).prepare(`EXPLAIN QUERY PLAN ${WATCHED_FILES_SQL}`).all(GEN_WORKTREE) as { detail: string }[])
        .map((r) => r.detail)
        .join("\n");
    const fresh = plan();
    // `doctor --rebuild` recreates the index with the projections.
    rebuildProjections(db);
    for (const text of [fresh, plan()]) {
      expect(text).toMatch(/^SCAN s\b/m);
      expect(text).toMatch(
        /SEARCH p USING (COVERING )?INDEX preserved_by_owner \(owner=\? AND worktree=\?\)/,
      );
      expect(text).not.toMatch(/SCAN p\b/);
    }
    db.close();
  });
});
