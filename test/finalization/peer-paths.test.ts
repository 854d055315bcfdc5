import { describe, expect, it } from "vitest";
import { isMine } from "../../src/core/finalization/owned.js";
import { ownedAbove, peerPathsWithin } from "../../src/finalization/peer-paths.js";
import { openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import { tempDir } from "../helpers/repo.js";

function store() {
  const db = openDb(tempDir());
  const claim = raw(db).prepare(
    "INSERT INTO claims (worktree, path, session_id, disposition, root, acquired_seq) VALUES (?, ?, ?, 'git', ?, 1)",
  );
  const history = raw(db).prepare(
    "INSERT INTO claim_history (session_id, worktree, path, first_seq, last_seq) VALUES (?, ?, ?, 1, 1)",
  );
  const touched = raw(db).prepare(
    "INSERT INTO touched (session_id, worktree, path, first_seq, unattributed) VALUES (?, ?, ?, 1, ?)",
  );
  claim.run("/r", "lib/held.txt", "peer", "/r");
  history.run("peer", "/r", "lib/old/a.txt");
  history.run("peer", "/r", "libx/outside.txt");
  history.run("peer", "/r", "lib");
  history.run("me", "/r", "lib/mine.txt");
  touched.run("peer", "/r/lib/sub", "deep.txt", 0);
  touched.run("peer", "/r", "lib/unattributed.txt", 1);
  history.run("peer", "/elsewhere", "lib/x.txt");
  return db;
}

describe("peers' paths the end-turn check reads", () => {
  it("reads only peer paths strictly inside the session's own, from every table and worktree", () => {
    const db = store();
    const found = peerPathsWithin(db, "me", [{ worktree: "/r", path: "lib" }]).sort();
    expect(found).toEqual(["/r/lib/held.txt", "/r/lib/old/a.txt", "/r/lib/sub/deep.txt"]);
    db.close();
  });

  it("reads a peer path inside an owned directory of another worktree, and nothing for owned files", () => {
    const db = store();
    expect(peerPathsWithin(db, "me", [{ worktree: "/r/lib", path: "old" }])).toEqual(["/r/lib/old/a.txt"]);
    expect(peerPathsWithin(db, "me", [{ worktree: "/r", path: "lib/mine.txt" }])).toEqual([]);
    expect(peerPathsWithin(db, "me", [])).toEqual([]);
    db.close();
  });

  it("owning a whole worktree's root takes in every peer path under it", () => {
    const db = store();
    expect(peerPathsWithin(db, "me", [{ worktree: "/", path: "r" }]).sort()).toEqual([
      "/r/lib",
      "/r/lib/held.txt",
      "/r/lib/old/a.txt",
      "/r/lib/sub/deep.txt",
      "/r/libx/outside.txt",
    ]);
    db.close();
  });

  it("reads peers only under the owned paths that hold a contested path, and none for a clean tree", () => {
    const owned = [
      { worktree: "/r", path: "lib" },
      { worktree: "/r", path: "lib/mine.txt" },
      { worktree: "/r", path: "docs/a.md" },
      { worktree: "relative", path: "x" },
    ];
    expect(ownedAbove(owned, [])).toEqual([]);
    expect(ownedAbove(owned, ["/r/lib/mine.txt"])).toEqual([owned[0], owned[1]]);
    expect(ownedAbove(owned, ["/r/lib/old/a.txt", "/r/libx/outside.txt"])).toEqual([owned[0]]);
    expect(ownedAbove(owned, ["/r/docs/a.md", "/r/docs/b.md"])).toEqual([owned[2]]);
  });

  it("decides every contested path as all the peers inside the owned paths would", () => {
    const db = store();
    const owned = [
      { worktree: "/r", path: "lib" },
      { worktree: "/r", path: "libx" },
    ];
    const all = new Set(peerPathsWithin(db, "me", owned));
    const contested = [
      "/r/lib/held.txt",
      "/r/lib/old/a.txt",
      "/r/lib/new.txt",
      "/r/lib/sub/deep.txt",
      "/r/libx/outside.txt",
      "/r/libx/new.txt",
    ];
    const few = new Set(peerPathsWithin(db, "me", ownedAbove(owned, contested)));
    const mine = new Set(["/r/lib", "/r/libx"]);
    const verdicts = (peers: Set<string>) => contested.map((c) => isMine(c, mine, peers));
    expect(verdicts(few)).toEqual(verdicts(all));
    expect(verdicts(all)).toEqual([false, false, true, false, false, true]);
    db.close();
  });
});
