import { describe, expect, it } from "vitest";
import type { Holder } from "../../../src/core/claims/decide.js";
import { tandemRefPush } from "../../../src/core/guards/tandem-refs.js";
import { stateRefusals } from "../../../src/core/guards/tandem-state.js";
import { worktreeFindings } from "../../../src/core/guards/worktree-peers.js";

describe("pushes that delete or rewrite refs/tandem/* on the remote", () => {
  it.each<[string, string[]]>([
    ["-f origin :refs/tandem/leases", ["deletes refs/tandem/leases"]],
    ["origin :refs/tandem/presence/abc", ["deletes refs/tandem/presence/abc"]],
    ["origin +main:refs/tandem/leases", ["rewrites refs/tandem/leases"]],
    ["origin main:refs/tandem/x", ["rewrites refs/tandem/x"]],
    ["origin :tandem/leases", ["deletes tandem/leases"]],
    ["--delete origin refs/tandem/leases", ["deletes refs/tandem/leases"]],
    ["origin --delete tandem/leases", ["deletes tandem/leases"]],
    ["-d origin refs/tandem/leases", ["deletes refs/tandem/leases"]],
    ["-fd origin refs/tandem/leases", ["deletes refs/tandem/leases"]],
    ["--mirror origin", ["mirrors every ref, deleting or rewriting refs/tandem/*"]],
    ["--prune origin refs/*:refs/*", ["prunes refs/* (deleting what this clone lacks)"]],
    ["--prune origin", ["prunes the refs the configuration pushes"]],
    ["origin +refs/*:refs/*", ["rewrites refs/*"]],
    ["origin refs/tandem/seen/leases", ["rewrites refs/tandem/seen/leases"]],
    ["-o ci.skip origin :refs/tandem/leases", ["deletes refs/tandem/leases"]],
    ["--repo=origin :refs/tandem/leases", ["deletes refs/tandem/leases"]],
    ["origin -- :refs/tandem/leases", ["deletes refs/tandem/leases"]],
  ])("git push %s", (words, effects) => {
    expect(tandemRefPush(words.split(" "))).toEqual(effects);
  });

  it.each([
    "origin main",
    "-f origin main",
    "-u origin feature",
    "origin :old-branch",
    "--delete origin old-branch",
    "origin tandem/feature",
    "--all origin",
    "--tags origin",
    "--prune origin refs/heads/*:refs/heads/*",
    "-n origin :refs/tandem/leases",
    "--dry-run --mirror origin",
    "origin HEAD:refs/heads/tandem/x",
  ])("leaves `git push %s` alone", (words) => {
    expect(tandemRefPush(words.split(" "))).toEqual([]);
  });
});

describe("Tandem's store as a target", () => {
  const places = { store: "/r/.git/tandem", commonDir: "/r/.git" };
  const refused = (physical: string) => stateRefusals([{ raw: physical, physical }], places).length > 0;

  it.each(["/r/.git/tandem", "/r/.git/tandem/blobs", "/r/.git/tandem/state.db", "/r/.git"])(
    "refuses %s",
    (p) => expect(refused(p)).toBe(true),
  );

  it.each(["/r", "/", "/r/.git/hooks/pre-commit", "/r/.git/tandemx", "/r/src/tandem", "/other/.git/tandem"])(
    "leaves %s to the claims",
    (p) => expect(refused(p)).toBe(false),
  );
});

describe("targets in another worktree", () => {
  const holder: Holder = {
    id: "s-a",
    name: "agent-dove",
    client: "claude-code",
    task: null,
    lastSeen: 0,
    live: true,
    group: "s-a",
  };
  const owned = new Map([["/w/wt", new Map([["src/f.txt", holder]])]]);
  const hits = (physical: string, self = "/w/repo") =>
    worktreeFindings([{ raw: physical, physical }], owned, self).map((f) => f.path);

  it.each([
    ["the worktree itself", "/w/wt"],
    ["a directory above it", "/w"],
    ["the directory holding the file", "/w/wt/src"],
    ["the file", "/w/wt/src/f.txt"],
  ])("finds the peer's file under %s", (_, physical) => {
    expect(hits(physical)).toEqual(["src/f.txt"]);
  });

  it.each([
    ["another file there", "/w/wt/src/g.txt"],
    ["a sibling directory", "/w/wtx"],
    ["the caller's own checkout", "/w/repo"],
  ])("finds nothing under %s", (_, physical) => {
    expect(hits(physical)).toEqual([]);
  });

  it("leaves the caller's own worktree to the claims", () => {
    expect(hits("/w/wt", "/w/wt")).toEqual([]);
  });
});
