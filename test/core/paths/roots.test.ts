import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type Classification,
  classify,
  type ResolvedRoots,
  type RootEntry,
  type RootFact,
  type RootProblemKind,
  type RootsInput,
  resolveRoots,
  type TargetProbe,
} from "../../../src/core/paths/roots.js";
import { fsTargetProbe, gatherRootFacts } from "../../../src/facts/root-facts.js";
import { initRepo, tempDir } from "../../helpers/repo.js";

// ---------------------------------------------------------------------------------------------
// Pure resolver: facts are hand-written. The workspace is /ws with the project at /ws/proj.
// ---------------------------------------------------------------------------------------------

const ROOT = "/ws/proj";

const dir = (physical: string, over: Partial<RootFact> = {}): RootFact => ({
  physical,
  exists: true,
  isDirectory: true,
  isRepoTop: false,
  insideRepo: null,
  ...over,
});
const repoTop = (p: string) => dir(p, { isRepoTop: true, insideRepo: p });
const inRepo = (p: string, top: string) => dir(p, { insideRepo: top });

/** Facts of the imaginary workspace, keyed by lexical absolute path. */
const FACTS: Record<string, RootFact> = {
  "/ws/proj": repoTop("/ws/proj"),
  "/ws/proj/build": inRepo("/ws/proj/build", "/ws/proj"),
  "/ws/proj/src": inRepo("/ws/proj/src", "/ws/proj"),
  "/ws/proj/vendor/lib": repoTop("/ws/proj/vendor/lib"),
  "/ws/sib": repoTop("/ws/sib"),
  "/ws/sib/dist": inRepo("/ws/sib/dist", "/ws/sib"),
  "/ws/plain": dir("/ws/plain"),
  "/ws/plain/inner": dir("/ws/plain/inner"),
  "/ws/out": dir("/ws/out"),
  "/ws/link": repoTop("/ws/real"),
  "/ws": dir("/ws"),
  "/ws/file.txt": dir("/ws/file.txt", { isDirectory: false }),
  "/ws/gone": dir("/ws/gone", { exists: false, isDirectory: false }),
  "/ws/locked": dir("/ws/locked", { error: "permission denied" }),
};

function resolve(entries: RootEntry[], rootRepoTop: string | null = ROOT): ResolvedRoots {
  const input: RootsInput = { root: ROOT, rootRepoTop, entries, facts: FACTS };
  return resolveRoots(input);
}

const git = (path: string): RootEntry => ({ path, disposition: "git" });
const output = (path: string): RootEntry => ({ path, disposition: "output" });

describe("resolveRoots", () => {
  it("makes the coordination root an implicit git root when it is in a repository", () => {
    expect(resolve([]).roots).toEqual([{ path: ROOT, disposition: "git", implicit: true, repoTop: ROOT }]);
  });

  it("finds the implicit root's repository from the root even when the root is a subdirectory", () => {
    expect(resolve([], "/ws").roots).toEqual([
      { path: ROOT, disposition: "git", implicit: true, repoTop: "/ws" },
    ]);
  });

  it("has no implicit root outside any repository", () => {
    expect(resolve([], null).roots).toEqual([]);
  });

  it.each([
    ["a sibling repository declared git", git("../sib"), "/ws/sib"],
    ["a nested repository declared git", git("vendor/lib"), "/ws/proj/vendor/lib"],
    ["a non-Git directory declared output", output("../out"), "/ws/out"],
    ["an absolute path", git("/ws/sib"), "/ws/sib"],
    ["a symlinked entry, by its physical path", git("../link"), "/ws/real"],
  ])("accepts %s", (_name, entry, path) => {
    const res = resolve([entry]);
    expect(res.problems).toEqual([]);
    expect(res.roots).toContainEqual(expect.objectContaining({ path, disposition: entry.disposition }));
  });

  const rejected: Array<[string, RootEntry[], Array<[string, RootProblemKind]>]> = [
    ["a non-Git directory declared git", [git("../plain")], [["../plain", "not-a-repo-top"]]],
    ["a subdirectory of a repository declared git", [git("src")], [["src", "not-a-repo-top"]]],
    ["a Git repository declared output", [output("../sib")], [["../sib", "output-inside-repo"]]],
    ["output inside the project's own repository", [output("build")], [["build", "output-inside-repo"]]],
    ["an output root containing the coordination root", [output("..")], [["..", "output-contains-git-root"]]],
    ["a missing directory", [output("../gone")], [["../gone", "missing"]]],
    ["a file", [output("../file.txt")], [["../file.txt", "not-a-directory"]]],
    ["a directory that could not be checked", [output("../locked")], [["../locked", "unverifiable"]]],
    ["an entry whose facts were never gathered", [output("../nowhere")], [["../nowhere", "unverifiable"]]],
    ["an empty path", [output("")], [["", "invalid-path"]]],
    [
      "an output root containing a git root (the git root overlaps it)",
      [output("../plain"), git("../plain/inner")],
      [
        ["../plain", "output-contains-git-root"],
        ["../plain/inner", "not-a-repo-top"],
        ["../plain/inner", "overlap"],
      ],
    ],
    [
      "the same directory with both dispositions, both sides",
      [git("../sib"), output("../sib")],
      [
        ["../sib", "overlap"],
        ["../sib", "output-inside-repo"],
        ["../sib", "output-contains-git-root"],
      ],
    ],
    [
      "output inside a git entry, both sides",
      [git("../sib"), output("../sib/dist")],
      [
        ["../sib", "overlap"],
        ["../sib/dist", "output-inside-repo"],
        ["../sib/dist", "overlap"],
      ],
    ],
  ];

  it.each(rejected)("rejects %s", (_name, entries, expected) => {
    const res = resolve(entries);
    const got = res.problems.map((p) => [p.configured, p.kind]);
    expect(got.sort()).toEqual([...expected].sort());
    for (const p of res.problems) {
      expect(res.roots.some((r) => r.configured === p.configured)).toBe(false);
    }
  });

  it("keeps the implicit root valid when only a bad output entry touches it", () => {
    const res = resolve([output("build")]);
    expect(res.roots.map((r) => r.path)).toEqual([ROOT]);
  });

  it("lists a duplicate entry, and a git entry naming the root, only once", () => {
    const res = resolve([git("."), git("../sib"), git("../sib/")]);
    expect(res.roots.map((r) => r.path)).toEqual([ROOT, "/ws/sib"]);
  });

  it("allows nested roots of the same disposition", () => {
    const res = resolve([output("../plain"), output("../plain/inner")]);
    expect(res.problems).toEqual([]);
    expect(res.roots).toHaveLength(3);
  });

  describe("messages say what is wrong and what to do", () => {
    const messageCases: Array<[string, RootEntry[], RegExp, RegExp]> = [
      [
        "non-Git directory declared git",
        [git("../plain")],
        /not inside any Git repository/,
        /\{"path": "\.\.\/plain", "disposition": "output"\}.*agents\.finalizationRoots in \.tandem\/config\.jsonc/,
      ],
      [
        "subdirectory declared git",
        [git("src")],
        /not the top level of a Git repository \(it lies inside \/ws\/proj\)/,
        /\{"path": "\.", "disposition": "git"\}/,
      ],
      [
        "sibling repository declared output",
        [output("../sib")],
        /is itself a Git repository/,
        /\{"path": "\.\.\/sib", "disposition": "git"\}/,
      ],
      [
        "output in own repository",
        [output("build")],
        /inside the Git repository at \/ws\/proj/,
        /remove this entry/,
      ],
      ["missing output", [output("../gone")], /does not exist/, /create the directory \/ws\/gone/],
      ["overlap", [git("../sib"), output("../sib")], /overlaps/, /exactly one disposition/],
    ];

    it.each(messageCases)("for a %s", (_name, entries, reason, remedy) => {
      const res = resolve(entries);
      const p = res.problems[0]!;
      expect(p.reason).toMatch(reason);
      expect(p.reason).toMatch(/^finalization root \{"path": /);
      expect(p.remedy).toMatch(remedy);
    });

    it("never tells anyone to commit or initialise a non-Git directory", () => {
      const all = [git("../plain"), output("../plain"), output("build"), output(".."), output("../gone")];
      for (const p of resolve(all).problems) expect(p.remedy).not.toMatch(/commit|git init/i);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// classify
// ---------------------------------------------------------------------------------------------

const noNested: TargetProbe = { nestedRepo: () => null };
const nestedAt = (top: string): TargetProbe => ({
  nestedRepo: (_root, target) => (target.startsWith(`${top}/`) ? top : null),
});

describe("classify", () => {
  const roots = resolve([git("../sib"), git("vendor/lib"), output("../out"), git("../plain")]);

  const cases: Array<[string, string, Partial<Classification>]> = [
    ["a file in the project is git work of the project", "/ws/proj/src/a.ts", { kind: "git", root: ROOT }],
    ["the root itself is git", "/ws/proj", { kind: "git", root: ROOT, repoTop: ROOT }],
    ["a file in a sibling git root", "/ws/sib/x.ts", { kind: "git", root: "/ws/sib", repoTop: "/ws/sib" }],
    ["the innermost root wins", "/ws/proj/vendor/lib/y.c", { kind: "git", root: "/ws/proj/vendor/lib" }],
    ["a file under an output root", "/ws/out/report.pdf", { kind: "output", root: "/ws/out" }],
    ["a scratch file elsewhere", "/tmp/scratch.txt", { kind: "outside" }],
    ["a name that only shares a prefix with a root", "/ws/sibling/x", { kind: "outside" }],
    ["a file under an invalid root fails closed", "/ws/plain/x", { kind: "invalid-root", root: "/ws/plain" }],
  ];

  it.each(cases)("%s", (_name, target, expected) => {
    expect(classify(target, roots, noNested)).toMatchObject(expected);
  });

  it("calls a path under an output root that lies in a nested repository unsupported", () => {
    const res = classify("/ws/out/clone/src/x.ts", roots, nestedAt("/ws/out/clone"));
    expect(res).toMatchObject({ kind: "unsupported", root: "/ws/out" });
    if (res.kind === "unsupported") {
      expect(res.reason).toMatch(/nested Git repository \/ws\/out\/clone/);
      expect(res.remedy).toMatch(/\{"path": "\.\.\/out\/clone", "disposition": "git"\}/);
      expect(res.remedy).toMatch(/start the work from the target project/);
    }
  });

  it("only asks the probe about targets under output roots", () => {
    const asked: string[] = [];
    const probe: TargetProbe = {
      nestedRepo: (_r, t) => {
        asked.push(t);
        return null;
      },
    };
    classify("/ws/proj/a", roots, probe);
    classify("/tmp/a", roots, probe);
    classify("/ws/out/a", roots, probe);
    expect(asked).toEqual(["/ws/out/a"]);
  });

  it("lets an invalid entry at the same path as a valid root fail closed", () => {
    const res = resolve([git("."), output(".")]);
    expect(classify("/ws/proj/a.ts", res, noNested).kind).toBe("invalid-root");
  });

  it("gives an invalid root every reason and remedy recorded for it", () => {
    const res = classify("/ws/sib/x", resolve([git("../sib"), output("../sib")]), noNested);
    expect(res.kind).toBe("invalid-root");
    if (res.kind === "invalid-root") {
      expect(res.reason).toMatch(/overlaps/);
      expect(res.reason).toMatch(/itself a Git repository/);
      expect(res.remedy).toMatch(/agents\.finalizationRoots/);
    }
  });

  it("tells how to authorize a target outside every root", () => {
    const res = classify("/ws/elsewhere/x", roots, noNested);
    expect(res.kind).toBe("outside");
    if (res.kind === "outside") {
      expect(res.reason).toMatch(/outside the authorized roots/);
      expect(res.remedy).toMatch(/"disposition": "git"/);
      expect(res.remedy).toMatch(/start the work from the target project/);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Real repositories: gatherRootFacts + the filesystem probe, end to end.
// ---------------------------------------------------------------------------------------------

function workspace() {
  const ws = tempDir();
  const proj = initRepo(join(ws, "proj"), { "README.md": "p\n", "src/a.ts": "a\n" });
  const sib = initRepo(join(ws, "sib"));
  const out = join(ws, "out");
  mkdirSync(join(ws, "plain"), { recursive: true });
  initRepo(join(out, "clone"));
  return { ws, proj, sib, out };
}

describe("gatherRootFacts with real repositories", () => {
  it("reports the coordination root's repository and validates a sibling git root", () => {
    const w = workspace();
    const res = resolveRoots(gatherRootFacts(w.proj, [git("../sib"), output("../out")]));
    expect(res.problems).toEqual([]);
    expect(res.roots).toEqual([
      { path: w.proj, disposition: "git", implicit: true, repoTop: w.proj },
      { path: w.sib, disposition: "git", implicit: false, repoTop: w.sib, configured: "../sib" },
      { path: w.out, disposition: "output", implicit: false, configured: "../out" },
    ]);
  });

  it("finds the repository top from a coordination root below it", () => {
    const w = workspace();
    const input = gatherRootFacts(join(w.proj, "src"), []);
    expect(input.rootRepoTop).toBe(w.proj);
  });

  it("has no repository top for a root outside Git", () => {
    const w = workspace();
    expect(gatherRootFacts(join(w.ws, "plain"), []).rootRepoTop).toBeNull();
  });

  it.each([
    ["a non-Git directory declared git", git("../plain"), "not-a-repo-top"],
    ["a Git directory declared output", output("../sib"), "output-inside-repo"],
    ["a subdirectory of a repository declared output", output("src"), "output-inside-repo"],
    ["a subdirectory of a repository declared git", git("src"), "not-a-repo-top"],
    ["a missing directory", git("../nope"), "missing"],
    ["a file", output("README.md"), "not-a-directory"],
    ["a Git directory itself declared output", output(".git"), "output-inside-repo"],
  ])("rejects %s", (_name, entry, kind) => {
    const w = workspace();
    const res = resolveRoots(gatherRootFacts(w.proj, [entry]));
    expect(res.problems.map((p) => p.kind)).toEqual([kind]);
  });

  it("rejects overlapping entries with different dispositions, both of them", () => {
    const w = workspace();
    const res = resolveRoots(gatherRootFacts(w.proj, [git("../sib"), output("../sib")]));
    expect(new Set(res.problems.map((p) => p.disposition))).toEqual(new Set(["git", "output"]));
    expect(res.roots.map((r) => r.path)).toEqual([w.proj]);
  });

  it("accepts a submodule-style nested repository as its own git root", () => {
    const w = workspace();
    initRepo(join(w.proj, "vendor", "lib"));
    const res = resolveRoots(gatherRootFacts(w.proj, [git("vendor/lib")]));
    expect(res.problems).toEqual([]);
    expect(classify(join(w.proj, "vendor/lib/x.c"), res, fsTargetProbe)).toMatchObject({
      kind: "git",
      root: join(w.proj, "vendor/lib"),
    });
  });

  it("resolves a symlinked entry to the repository it points at", () => {
    const w = workspace();
    symlinkSync(w.sib, join(w.ws, "sib-link"));
    const res = resolveRoots(gatherRootFacts(w.proj, [git("../sib-link")]));
    expect(res.problems).toEqual([]);
    expect(res.roots[1]?.path).toBe(w.sib);
  });

  it("handles a repository path with spaces, quotes and a leading dash", () => {
    const w = workspace();
    const odd = initRepo(join(w.ws, `-my "odd" repo`));
    const res = resolveRoots(gatherRootFacts(w.proj, [git(`../-my "odd" repo`)]));
    expect(res.problems).toEqual([]);
    expect(res.roots[1]?.path).toBe(odd);
  });
});

describe("fsTargetProbe", () => {
  it.each([
    ["a file directly in the output root", "report.pdf", null],
    ["a new file in a new directory", "new/deep/file.txt", null],
    ["a file in a nested clone", "clone/src/x.ts", "clone"],
    ["a new file in a nested clone", "clone/new/x.ts", "clone"],
    ["the nested clone itself", "clone", "clone"],
    ["a file in the nested clone's Git directory", "clone/.git/config", "clone"],
    ["a new .git in the output root", ".git/HEAD", "."],
  ])("finds the nested repository for %s", (_name, rel, expected) => {
    const w = workspace();
    const top = expected === null ? null : expected === "." ? w.out : join(w.out, expected);
    expect(fsTargetProbe.nestedRepo(w.out, join(w.out, rel))).toBe(top);
  });

  it("sees a worktree or submodule whose .git is a file", () => {
    const w = workspace();
    mkdirSync(join(w.out, "wt"));
    writeFileSync(join(w.out, "wt", ".git"), "gitdir: /elsewhere\n");
    expect(fsTargetProbe.nestedRepo(w.out, join(w.out, "wt/x"))).toBe(join(w.out, "wt"));
  });

  it("classifies a write into a clone under an output root as unsupported", () => {
    const w = workspace();
    const res = resolveRoots(gatherRootFacts(w.proj, [output("../out")]));
    expect(classify(join(w.out, "clone/README.md"), res, fsTargetProbe).kind).toBe("unsupported");
    expect(classify(join(w.out, "artifact.bin"), res, fsTargetProbe).kind).toBe("output");
  });
});
