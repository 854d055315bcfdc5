/**
 * Past a few dozen owned paths, a repository's status runs over the directories that hold them
 * (core/finalization/pathspec-cover.ts) instead of one pathspec per path: the verdicts must not change.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { g, tempDir, writeFiles } from "../helpers/repo.js";
import {
  clonedRepo,
  commit,
  endTurn,
  endTurnHere,
  gitShim,
  problems,
  shellHere,
  writeHere,
} from "./fixture.js";

/** More owned files than the status takes one pathspec each for. */
const MANY = 70;
/**
 * A shell command writing them into `dir`, which exists already: a directory the session created
 * would be its own, with everything in it.
 */
const makeMany = (dir: string) => `for i in $(seq 1 ${MANY}); do echo $i > ${dir}/f$i.txt; done`;

/** A pushed clone with a committed directory `d` that no session owns. */
function repoWithDir(): string {
  const { repo } = clonedRepo(tempDir(), "repo");
  writeFiles(repo, { "d/README": "d\n" });
  commit(repo, "d", "d");
  g(repo, "push", "-q");
  return repo;
}

/** A pushed superproject with a pushed submodule at libs/sub. */
function superWithNestedSub(base: string): { sup: string; sub: string } {
  const { repo: sup } = clonedRepo(base, "super");
  const { remote } = clonedRepo(base, "lib");
  g(sup, "submodule", "add", "-q", remote, "libs/sub");
  g(sup, "commit", "-q", "-m", "add submodule");
  g(sup, "push", "-q");
  return { sup, sub: join(sup, "libs", "sub") };
}

const head = (repo: string) => g(repo, "rev-parse", "HEAD").trim();

describe("end-turn over many owned paths: one status over the directories that hold them", () => {
  it("settles a submodule pointer inside the covering directory, and still sees it move", async () => {
    const base = tempDir();
    const { sup, sub } = superWithNestedSub(base);
    await shellHere(sup, "A", makeMany("libs"));
    await writeHere(sup, "A", "libs/sub/a.txt");
    commit(sub, "a", "a.txt");
    g(sub, "push", "-q");
    commit(sup, "files and bump", "libs");
    g(sup, "push", "-q");

    const shim = gitShim(base);
    expect(endTurn(sup, "A", shim.env)).toMatchObject({ code: 0, json: { ok: true } });
    const calls = shim.calls().map((c) => {
      const [dir, args] = c.split("\t");
      return `${dir === sub ? "sub" : dir === sup ? "sup" : dir}: ${args}`;
    });
    // No ls-files -s or ls-tree: the superproject's status over `libs` settled the pointer.
    expect(calls.map((c) => c.split(" ").slice(0, 3).join(" ")).sort()).toEqual([
      "sub: status --porcelain=v2",
      "sup: status --porcelain=v2",
    ]);
    expect(calls.find((c) => c.startsWith("sup:"))).toMatch(/ -- :\(literal\)libs$/);

    // The submodule moves on (pushed) while the superproject still records the old commit.
    const recorded = head(sub);
    writeFiles(sub, { "b.txt": "b\n" });
    commit(sub, "b", "b.txt");
    g(sub, "push", "-q");
    expect(problems((await endTurnHere(sup, "A")).json.findings)).toEqual({
      gitlinkMismatch: [
        {
          superproject: sup,
          path: "libs/sub",
          parentHead: recorded,
          parentIndex: recorded,
          childHead: head(sub),
        },
      ],
    });
  });

  it("fails on an owned dirty file but not on a file nobody owns in the same directory", async () => {
    const repo = repoWithDir();
    await shellHere(repo, "A", makeMany("d"));
    commit(repo, "many", "d");
    g(repo, "push", "-q");
    writeFiles(repo, { "d/nobody.txt": "not the session's\n", "d/f7.txt": "changed\n" });
    expect(problems((await endTurnHere(repo, "A")).json.findings)).toEqual({
      dirty: [{ repo, path: "d/f7.txt", state: ".M" }],
    });
  });

  it("shows ignored owned files, alone or in an ignored directory, as not finalized", async () => {
    const repo = repoWithDir();
    writeFiles(repo, { ".gitignore": "*.log\nd/build/\n", "d/build/keep": "nobody's\n" });
    commit(repo, "ignore", ".gitignore");
    await shellHere(repo, "A", `${makeMany("d")} && echo x > d/run.log && echo y > d/build/out.js`);
    writeFiles(repo, { "d/other.log": "nobody's\n" });
    commit(repo, "many", "d");
    g(repo, "push", "-q");
    const r = await endTurnHere(repo, "A");
    expect(r.code).toBe(0);
    expect(problems(r.json.findings)).toEqual({
      ignored: [
        { repo, path: "d/build/out.js" },
        { repo, path: "d/run.log" },
      ],
    });
  });

  it("reports an owned path with a newline in its name exactly, then passes once it is pushed", async () => {
    const repo = repoWithDir();
    await shellHere(repo, "A", `${makeMany("d")} && printf x > 'd/new\nline.txt'`);
    commit(repo, "many", "d/f1.txt");
    const dirty = problems((await endTurnHere(repo, "A")).json.findings).dirty ?? [];
    expect(dirty).toHaveLength(MANY);
    expect(dirty).toContainEqual({ repo, path: "d/new\nline.txt", state: "??" });
    commit(repo, "the rest", "d");
    g(repo, "push", "-q");
    expect(await endTurnHere(repo, "A")).toMatchObject({ code: 0, json: { ok: true } });
  });

  it("stops the status started before locating when a nested repository makes it the wrong one", async () => {
    const base = tempDir();
    const { repo: main } = clonedRepo(base, "main");
    const { remote } = clonedRepo(base, "lib");
    g(base, "clone", "-q", remote, join(main, "vendor", "lib"));
    writeFiles(main, { ".gitignore": "vendor/\n" });
    commit(main, "ignore", ".gitignore");
    g(main, "push", "-q");
    const lib = join(main, "vendor", "lib");
    await writeHere(main, "A", "vendor/lib/a.txt");
    const shim = gitShim(base);
    expect(problems(endTurn(main, "A", shim.env).json.findings)).toEqual({
      dirty: [{ repo: lib, path: "a.txt", state: "??" }],
    });
    // The guess (over vendor/lib/a.txt) does not cover vendor/lib, which the located paths ask
    // the outer repository about: it is stopped and the right one runs.
    const statuses = shim
      .calls()
      .filter((c) => c.split("\t")[1]!.startsWith("status"))
      .map((c) => (c.startsWith(`${lib}\t`) ? "lib" : c.startsWith(`${main}\t`) ? "main" : c));
    expect(statuses.sort()).toEqual(["lib", "main", "main"]);
    commit(lib, "a", "a.txt");
    g(lib, "push", "-q");
    expect(await endTurnHere(main, "A")).toMatchObject({ code: 0, json: { ok: true } });
  });
});
