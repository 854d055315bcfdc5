import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { git } from "../../src/git/run.js";
import { listRefs, readDocs, remoteOf, writeDocCommit } from "../../src/remote/objects.js";
import { g, initRepo, tempDir } from "../helpers/repo.js";

describe("documents in commits of their own", () => {
  it("writes a parentless commit holding one file, lists it by ref and reads it back", () => {
    const repo = initRepo(join(tempDir(), "r"));
    const text = '{"name":"ünï \\"x\\""}\n';
    const commit = writeDocCommit(repo, "presence.json", text, "tandem presence");
    expect(git(repo, ["rev-list", "--parents", "-n", "1", commit]).trim()).toBe(commit);
    expect(git(repo, ["ls-tree", "--name-only", commit]).trim()).toBe("presence.json");
    g(repo, "update-ref", "refs/tandem/seen/presence/abc", commit);
    expect(listRefs(repo, "refs/tandem/seen/presence")).toEqual([
      { ref: "refs/tandem/seen/presence/abc", commit },
    ]);
    const head = git(repo, ["rev-parse", "HEAD"]).trim();
    expect(readDocs(repo, [commit, head, commit], "presence.json")).toEqual([text, null, text]);
  });

  it("shares through the current branch's remote, else origin, else none", () => {
    const repo = initRepo(join(tempDir(), "r"));
    expect(remoteOf(repo, null)).toBeNull();
    g(repo, "remote", "add", "origin", "/nonexistent/o.git");
    g(repo, "remote", "add", "up", "/nonexistent/u.git");
    expect(remoteOf(repo, null)).toBe("origin");
    g(repo, "config", "branch.main.remote", "up");
    expect(remoteOf(repo, null)).toBe("up");
    expect(remoteOf(repo, "origin")).toBe("origin");
    expect(remoteOf(repo, "nope")).toBeNull();
  });
});
