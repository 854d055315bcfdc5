import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { g, tempDir, writeFiles } from "../helpers/repo.js";
import {
  clonedRepo,
  commit,
  endTurn,
  endTurnHere,
  endTurnTextHere,
  events,
  gitShim,
  problems,
  shellHere,
  superWithSub,
  writeHere,
} from "./fixture.js";

const head = (repo: string) => g(repo, "rev-parse", "HEAD").trim();

describe("end-turn through submodules", () => {
  it("walks a submodule file to the superproject pointer: child, index and HEAD must agree, then both must be pushed", async () => {
    const { sup, sub } = superWithSub(tempDir());
    const recorded = head(sub);
    await writeHere(sup, "A", "sub/a.txt");
    expect(problems((await endTurnHere(sup, "A")).json.findings)).toEqual({
      dirty: [{ repo: sub, path: "a.txt", state: "??" }],
    });

    // Committed in the submodule only: not pushed, and the child's HEAD left the recorded pointer.
    commit(sub, "a", "a.txt");
    const moved = head(sub);
    expect(problems((await endTurnHere(sup, "A")).json.findings)).toEqual({
      unpushed: [{ repo: sub, branch: "main", upstream: "origin/main", ahead: 1 }],
      gitlinkMismatch: [
        { superproject: sup, path: "sub", parentHead: recorded, parentIndex: recorded, childHead: moved },
      ],
    });
    g(sub, "push", "-q");
    const text = await endTurnTextHere(sup, "A");
    expect(text.stderr).toContain("Submodule pointers that disagree (1):");
    expect(text.stderr).toContain(`git -C ${sup} add -- sub && git -C ${sup} commit && git -C ${sup} push`);

    // Staged in the superproject but not committed: HEAD disagrees with the index.
    g(sup, "add", "sub");
    expect(problems((await endTurnHere(sup, "A")).json.findings)).toEqual({
      gitlinkMismatch: [
        { superproject: sup, path: "sub", parentHead: recorded, parentIndex: moved, childHead: moved },
      ],
    });

    // The superproject reached through the submodule gets the push check too.
    g(sup, "commit", "-q", "-m", "bump sub");
    expect(problems((await endTurnHere(sup, "A")).json.findings)).toEqual({
      unpushed: [{ repo: sup, branch: "main", upstream: "origin/main", ahead: 1 }],
    });
    g(sup, "push", "-q");
    expect(await endTurnHere(sup, "A")).toMatchObject({ code: 0, json: { ok: true } });
  });

  it("fails when the superproject records a pointer the submodule is no longer at", async () => {
    const { sup, sub } = superWithSub(tempDir());
    await writeHere(sup, "A", "sub/a.txt");
    commit(sub, "a", "a.txt");
    g(sub, "push", "-q");
    commit(sup, "bump", "sub");
    g(sup, "push", "-q");
    expect((await endTurnHere(sup, "A")).code).toBe(0);
    const pointer = head(sub);
    g(sub, "checkout", "-q", "HEAD~1");
    expect(problems((await endTurnHere(sup, "A")).json.findings)).toEqual({
      gitlinkMismatch: [
        { superproject: sup, path: "sub", parentHead: pointer, parentIndex: pointer, childHead: head(sub) },
      ],
    });
  });

  it("passes a detached submodule HEAD that a remote-tracking ref contains, and fails one no ref contains", async () => {
    const { sup, sub } = superWithSub(tempDir());
    await writeHere(sup, "A", "sub/a.txt");
    commit(sub, "a", "a.txt");
    g(sub, "push", "-q");
    commit(sup, "bump", "sub");
    g(sup, "push", "-q");
    g(sub, "checkout", "-q", "--detach");
    expect((await endTurnHere(sup, "A")).code).toBe(0);

    await writeHere(sup, "A", "sub/b.txt");
    commit(sub, "b", "b.txt");
    const r = await endTurnHere(sup, "A");
    expect(r.json.findings.unpushed).toEqual([
      {
        repo: sub,
        branch: null,
        reason: expect.stringMatching(/^detached HEAD [0-9a-f]{12} is on no remote-tracking ref$/),
      },
    ]);
    expect((await endTurnTextHere(sup, "A")).stderr).toContain(
      `git -C ${sub} push <remote> HEAD:refs/heads/<branch>`,
    );
  });

  it("ignores a peer's dirt inside the submodule once the gitlink is committed and pushed", async () => {
    const { sup, sub } = superWithSub(tempDir());
    await writeHere(sup, "A", "sub/a.txt");
    await writeHere(sup, "B", "sub/peer.txt");
    writeFiles(sub, { "README.md": "a human edit\n" });
    commit(sub, "a", "a.txt");
    g(sub, "push", "-q");
    commit(sup, "bump", "sub");
    g(sup, "push", "-q");
    expect(await endTurnHere(sup, "A")).toMatchObject({ code: 0, json: { ok: true } });
    expect(problems((await endTurnHere(sup, "B")).json.findings)).toEqual({
      dirty: [{ repo: sub, path: "peer.txt", state: "??" }],
    });
  });

  it("scopes a shell change that only shows as the submodule to the whole submodule, minus what peers own", async () => {
    const { sup, sub } = superWithSub(tempDir());
    await writeHere(sup, "B", "sub/peer.txt");
    await shellHere(sup, "A", "echo generated > sub/gen.txt");
    const touched = events(sup).find((e) => e.kind === "files.touched");
    expect(touched?.data).toMatchObject({ paths: ["sub"] });
    const r = await endTurnHere(sup, "A");
    expect(problems(r.json.findings)).toEqual({ dirty: [{ repo: sub, path: "gen.txt", state: "??" }] });
    commit(sub, "gen", "gen.txt");
    g(sub, "push", "-q");
    commit(sup, "bump", "sub");
    g(sup, "push", "-q");
    expect((await endTurnHere(sup, "A")).code).toBe(0);
  });

  it("reports a submodule whose .git no longer leads to a repository as unverifiable", async () => {
    const { sup, sub } = superWithSub(tempDir());
    await writeHere(sup, "A", "sub/a.txt");
    commit(sub, "a", "a.txt");
    g(sub, "push", "-q");
    commit(sup, "bump", "sub");
    g(sup, "push", "-q");
    writeFiles(sub, { ".git": "gitdir: ../.git/modules/gone\n" });
    const r = await endTurnHere(sup, "A");
    expect(r.code).toBe(1);
    expect(problems(r.json.findings)).toEqual({
      unverifiable: [
        { repo: sub, reason: expect.stringMatching(/^git status failed in .*not a git repository/) },
      ],
    });
  });

  it("reports a superproject outside the roots as unverifiable without running git there", async () => {
    const base = tempDir();
    const { sup, sub } = superWithSub(base);
    // The coordination root is the submodule itself: its superproject is outside every root.
    writeFiles(sub, { ".tandem/config.jsonc": "{}\n" });
    await writeHere(sub, "A", "a.txt");
    commit(sub, "a", "a.txt");
    g(sub, "push", "-q");
    const shim = gitShim(base);
    const r = endTurn(sub, "A", shim.env);
    expect(problems(r.json.findings)).toEqual({
      unverifiable: [
        {
          repo: sup,
          reason: expect.stringMatching(/superproject of .*sub but lies outside the authorized roots/),
        },
      ],
    });
    expect(shim.calls().length).toBeGreaterThan(0);
    expect(shim.calls().filter((c) => c.split("\t")[0] === sup)).toEqual([]);
  });

  it.each([
    [
      "submodule.sub.ignore=all in .gitmodules",
      (sup: string) => g(sup, "config", "-f", ".gitmodules", "submodule.sub.ignore", "all"),
    ],
    [
      "diff.ignoreSubmodules=all in the config",
      (sup: string) => g(sup, "config", "diff.ignoreSubmodules", "all"),
    ],
  ])("still sees a moved pointer with %s", async (_name, configure) => {
    const { sup, sub } = superWithSub(tempDir());
    const recorded = head(sub);
    configure(sup);
    await writeHere(sup, "A", "sub/a.txt");
    commit(sub, "a", "a.txt");
    g(sub, "push", "-q");
    expect(problems((await endTurnHere(sup, "A")).json.findings)).toMatchObject({
      gitlinkMismatch: [
        { superproject: sup, path: "sub", parentHead: recorded, parentIndex: recorded, childHead: head(sub) },
      ],
    });
  });

  it("settles a clean submodule pointer from the superproject's own status, with no ls-files -s or ls-tree", async () => {
    const base = tempDir();
    const { sup, sub } = superWithSub(base);
    await writeHere(sup, "A", "sub/a.txt");
    commit(sub, "a", "a.txt");
    g(sub, "push", "-q");
    commit(sup, "bump sub", "sub");
    g(sup, "push", "-q");
    const shim = gitShim(base);
    expect(endTurn(sup, "A", shim.env)).toMatchObject({ code: 0, json: { ok: true } });
    const calls = shim.calls().map((c) => {
      const [dir, args] = c.split("\t");
      return `${dir === sub ? "sub" : dir === sup ? "sup" : dir}: ${args!.split(" ").slice(0, 2).join(" ")}`;
    });
    // The index flags come from the index file, so a plain index costs no `ls-files -v`.
    expect(calls.sort()).toEqual(["sub: status --porcelain=v2", "sup: status --porcelain=v2"]);
  });

  it.each([
    ["ignored by name", "vendor/lib/\n"],
    ["inside an ignored directory", "vendor/\n"],
    ["untracked", ""],
  ])(
    "treats a repository nested in the root but %s as independent: the outer push state is not asked",
    async (_n, ignore) => {
      const base = tempDir();
      const { repo: main } = clonedRepo(base, "main");
      const { remote } = clonedRepo(base, "lib");
      g(base, "clone", "-q", remote, join(main, "vendor", "lib"));
      writeFiles(main, { ".gitignore": ignore, "local.txt": "not pushed\n" });
      commit(main, "local only", ".gitignore", "local.txt");
      const lib = join(main, "vendor", "lib");
      await writeHere(main, "A", "vendor/lib/a.txt");
      commit(lib, "a", "a.txt");
      g(lib, "push", "-q");
      expect(problems((await endTurnHere(main, "A")).json.findings)).toEqual({});
    },
  );

  it("falls back to the index and HEAD for a conflicted submodule pointer", async () => {
    const { sup, sub } = superWithSub(tempDir());
    const recorded = head(sub);
    await writeHere(sup, "A", "sub/a.txt");
    // The pointer moves one way on a branch and another way on main; merging them conflicts.
    commit(sub, "a", "a.txt");
    g(sub, "push", "-q");
    g(sup, "checkout", "-q", "-b", "other");
    commit(sup, "bump on other", "sub");
    g(sup, "checkout", "-q", "main");
    g(sub, "checkout", "-q", recorded);
    writeFiles(sub, { "b.txt": "b\n" });
    commit(sub, "b", "b.txt");
    g(sub, "push", "-q", "origin", "HEAD:refs/heads/side");
    const ours = head(sub);
    commit(sup, "bump on main", "sub");
    expect(() => g(sup, "merge", "-q", "--no-edit", "other")).toThrow();
    expect(g(sup, "ls-files", "-u", "--", "sub")).not.toBe("");
    expect(problems((await endTurnHere(sup, "A")).json.findings)).toEqual({
      unpushed: [{ repo: sup, branch: "main", upstream: "origin/main", ahead: 1 }],
      gitlinkMismatch: [
        { superproject: sup, path: "sub", parentHead: ours, parentIndex: null, childHead: ours },
      ],
    });
  });
});
