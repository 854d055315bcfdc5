import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { git } from "../../src/git/run.js";
import { openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import { g, writeFiles } from "../helpers/repo.js";
import {
  addTarget,
  expectOk,
  runScriptHere,
  stagedNames,
  sub,
  subHere,
  subRepo,
  targetState,
} from "./sub-fixture.js";

const LINES = "one\ntwo\nthree\nfour\nfive\n";
const head = (dir: string) => g(dir, "rev-parse", "HEAD").trim();
const subjects = (dir: string, base: string) =>
  g(dir, "log", "--reverse", "--format=%s", `${base}..HEAD`).trim().split("\n").filter(Boolean);

describe("sub apply", () => {
  it("applies commits first, then the uncommitted changes on top of them, unstaged", async () => {
    const s = subRepo();
    const { json } = await runScriptHere(
      s.repo,
      "echo one > c1.txt && git add c1.txt && git commit -qm 'add c1' && echo two >> c1.txt && printf '\\000\\377img' > img.bin",
    );
    expectOk(await subHere(s.repo, ["apply", json.id]));
    expect(subjects(s.repo, s.base)).toEqual(["add c1"]);
    expect(g(s.repo, "show", "HEAD:c1.txt")).toBe("one\n");
    expect(readFileSync(join(s.repo, "c1.txt"), "utf8")).toBe("one\ntwo\n");
    expect(readFileSync(join(s.repo, "img.bin"))).toEqual(Buffer.from([0, 0xff, 0x69, 0x6d, 0x67]));
    expect(stagedNames(s.repo)).toEqual([]);
    expect(g(s.repo, "status", "--porcelain")).toBe(" M c1.txt\n?? img.bin\n");
  });

  it("carries names with spaces, quotes and non-ASCII through commits and uncommitted changes", async () => {
    const s = subRepo();
    const script = [
      "mkdir 'dir one'",
      'echo q > "dir one/it\'s \\"q\\".txt"',
      "git add -A && git commit -qm 'odd names'",
      "echo u > 'ünï cödé.txt'",
      "echo tab > \"$(printf 'tab\\there.txt')\"",
    ].join(" && ");
    const { json } = await runScriptHere(s.repo, script);
    // A target whose own dirty file has one of those names is refused before anything changes.
    const busy = addTarget(s, "busy");
    writeFiles(busy, { "ünï cödé.txt": "mine\n" });
    const refused = await subHere(s.repo, ["apply", json.id, "--target", busy]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("ünï cödé.txt");
    expect(head(busy)).toBe(s.base);
    expectOk(await subHere(s.repo, ["apply", json.id]));
    expect(readFileSync(join(s.repo, "dir one", 'it\'s "q".txt'), "utf8")).toBe("q\n");
    expect(readFileSync(join(s.repo, "ünï cödé.txt"), "utf8")).toBe("u\n");
    expect(readFileSync(join(s.repo, "tab\there.txt"), "utf8")).toBe("tab\n");
  });

  it("applies one capture into a second target independently", async () => {
    const s = subRepo();
    const { json } = await runScriptHere(
      s.repo,
      "echo a > a.txt && git add a.txt && git commit -qm a && echo d > d.txt",
    );
    const one = addTarget(s, "one");
    const two = addTarget(s, "two");
    expectOk(await subHere(s.repo, ["apply", json.id, "--target", one]));
    expect((await subHere(s.repo, ["apply", json.id, "--target", one])).stdout).toMatch(/already applied/);
    expectOk(await subHere(s.repo, ["apply", json.id, "--target", two]));
    expect(targetState(two, s.base)).toEqual(targetState(one, s.base));
  });

  it("blocks on a conflicting uncommitted patch, keeps the target's own work, and finishes with --acknowledge-partial", async () => {
    const s = subRepo({ "shared.txt": LINES, "notes.txt": "notes\n" });
    const { json } = await runScriptHere(
      s.repo,
      "sed -i 's/two/child two/' shared.txt && echo other > other.txt",
    );
    const t = addTarget(s, "t");
    writeFiles(t, { "shared.txt": LINES.replace("two", "target two") });
    g(t, "commit", "-qam", "target edits shared");
    writeFiles(t, { "notes.txt": "notes\nmine\n", "mine.txt": "mine\n" });
    const blocked = await subHere(s.repo, ["apply", json.id, "--target", t, "--json"]);
    expect(blocked.code).toBe(1);
    expect(JSON.parse(blocked.stdout)).toMatchObject({ outcome: "blocked", paths: ["shared.txt"] });
    expect(JSON.parse(blocked.stdout).message).toMatch(/--acknowledge-partial/);
    expect(readFileSync(join(t, "shared.txt"), "utf8")).toMatch(/^<<<<<<< /m);
    expect(readFileSync(join(t, "notes.txt"), "utf8")).toBe("notes\nmine\n");
    expect(readFileSync(join(t, "mine.txt"), "utf8")).toBe("mine\n");
    expect(readFileSync(join(t, "other.txt"), "utf8")).toBe("other\n");
    expect(git(t, ["ls-files", "-u"])).toContain("shared.txt");
    expect((await subHere(s.repo, ["show", json.id])).stdout).toMatch(/BLOCKED \(conflicts in shared.txt\)/);
    // Still blocked without the acknowledgement; refused while markers remain.
    expect((await subHere(s.repo, ["apply", json.id, "--target", t])).code).toBe(1);
    expect(
      (await subHere(s.repo, ["apply", json.id, "--target", t, "--acknowledge-partial"])).stderr,
    ).toMatch(/markers remain/);
    writeFiles(t, { "shared.txt": LINES.replace("two", "both twos") });
    const done = await subHere(s.repo, ["apply", json.id, "--target", t, "--acknowledge-partial"]);
    expectOk(done);
    expect(done.stdout).toMatch(/resolved by hand/);
    expect(git(t, ["ls-files", "-u"])).toBe("");
    expect(stagedNames(t)).toEqual([]);
    expect((await subHere(s.repo, ["apply", json.id, "--target", t])).stdout).toMatch(/already applied/);
  });

  it("merges an uncommitted patch the target's own commit moved under, leaving the result unstaged", async () => {
    const twenty = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join("");
    const s = subRepo({ "long.txt": twenty, "side.txt": "side\n" });
    const { json } = await runScriptHere(
      s.repo,
      "sed -i 's/^line 12$/child 12/' long.txt && echo new > new.txt",
    );
    const t = addTarget(s, "t");
    // Line 10 sits in the patch's context: a plain apply refuses, the three-way merge does not.
    writeFiles(t, { "long.txt": twenty.replace("line 10\n", "target 10\n") });
    g(t, "commit", "-qam", "target edits line 10");
    writeFiles(t, { "side.txt": "side, staged by the target\n" });
    g(t, "add", "side.txt");
    expectOk(await subHere(s.repo, ["apply", json.id, "--target", t]));
    const merged = readFileSync(join(t, "long.txt"), "utf8");
    expect(merged).toContain("target 10\n");
    expect(merged).toContain("child 12\n");
    expect(stagedNames(t)).toEqual(["side.txt"]);
    expect(g(t, "status", "--porcelain")).toBe(" M long.txt\nM  side.txt\n?? new.txt\n");
  });

  it("aborts a failing git am, leaves the target as it was and names the failing commit", async () => {
    const s = subRepo({ "shared.txt": LINES, "notes.txt": "notes\n" });
    const { json } = await runScriptHere(
      s.repo,
      "echo c > c1.txt && git add c1.txt && git commit -qm 'child adds c1' && sed -i 's/two/child two/' shared.txt && git commit -qam 'child edits shared'",
    );
    const failing = g(json.worktree, "rev-parse", "HEAD").trim();
    const t = addTarget(s, "t");
    writeFiles(t, { "shared.txt": LINES.replace("two", "target two") });
    g(t, "commit", "-qam", "target edits shared");
    writeFiles(t, { "notes.txt": "notes\nmine\n" });
    const before = targetState(t, s.base);
    const dry = await subHere(s.repo, ["apply", json.id, "--target", t, "--dry-run"]);
    expect(dry.code).toBe(1);
    expect(dry.stderr).toMatch(/dry run: git am would fail at child commit .*shared.txt/);
    expect(targetState(t, s.base)).toEqual(before);
    expect(g(s.repo, "worktree", "list")).not.toContain("dry-");
    const r = await subHere(s.repo, ["apply", json.id, "--target", t, "--json"]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ outcome: "failed", failingCommit: failing, paths: ["shared.txt"] });
    expect(out.message).toContain(failing.slice(0, 12));
    expect(out.message).toContain('"child edits shared"');
    expect(out.message).toMatch(/aborted and the target is as it was/);
    expect(targetState(t, s.base)).toEqual(before);
    expect(existsSync(join(g(t, "rev-parse", "--absolute-git-dir").trim(), "rebase-apply"))).toBe(false);
    expect((await subHere(s.repo, ["show", json.id])).stdout).toMatch(/last apply failed/);
    // The marker was cleared: once the conflict is gone, a fresh apply succeeds.
    g(t, "reset", "-q", "--hard", s.base);
    expectOk(await subHere(s.repo, ["apply", json.id, "--target", t]));
    expect(subjects(t, s.base)).toEqual(["child adds c1", "child edits shared"]);
  });

  it("fails closed on a retry after the target's HEAD was reset or rebased, and starts over from the fence", async () => {
    const s = subRepo();
    const { json } = await runScriptHere(
      s.repo,
      "echo 1 > one.txt && git add one.txt && git commit -qm one && echo 2 > two.txt && git add two.txt && git commit -qm two && echo d > d.txt",
    );
    const t = addTarget(s, "t");
    expect(
      sub(s.repo, ["apply", json.id, "--target", t], { TANDEM_TEST_CRASH_AT: "apply:after-am" }).code,
    ).toBe(-1);
    g(t, "reset", "-q", "--hard", "HEAD~1");
    const r = await subHere(s.repo, ["apply", json.id, "--target", t]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not exactly the artifact's.*Reset the target to/);
    expect(subjects(t, s.base)).toEqual(["one"]);
    // Rebased: the fence is gone from history.
    g(t, "reset", "-q", "--hard", s.base);
    writeFiles(t, { "x.txt": "x\n" });
    g(t, "add", "x.txt");
    g(t, "commit", "-qm", "other work");
    expect((await subHere(s.repo, ["apply", json.id, "--target", t])).stderr).toMatch(
      /not exactly the artifact's/,
    );
    g(t, "reset", "-q", "--hard", s.base);
    // Back at the fence: a fresh start, with --expected-head naming the fence.
    expectOk(await subHere(s.repo, ["apply", json.id, "--target", t, "--expected-head", s.base]));
    expect(subjects(t, s.base)).toEqual(["one", "two"]);
  });

  it("asks the user to finish or abort an am session found on a retry", async () => {
    const s = subRepo({ "shared.txt": LINES, "notes.txt": "notes\n" });
    const { json } = await runScriptHere(
      s.repo,
      "sed -i 's/two/child two/' shared.txt && git commit -qam 'child edits shared'",
    );
    const t = addTarget(s, "t");
    expect(
      sub(s.repo, ["apply", json.id, "--target", t], { TANDEM_TEST_CRASH_AT: "apply:before-am" }).code,
    ).toBe(-1);
    // Someone runs an am of their own that stops half-way.
    writeFiles(t, { "shared.txt": LINES.replace("two", "target two") });
    g(t, "commit", "-qam", "target edits shared");
    const mbox = g(json.worktree, "format-patch", "--stdout", "-1");
    writeFiles(s.root, { "p.mbox": mbox });
    expect(() => g(t, "am", join(s.root, "p.mbox"))).toThrow();
    const r = await subHere(s.repo, ["apply", json.id, "--target", t]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/git am --continue.*git am --abort/);
    g(t, "am", "--abort");
  });

  it("fails closed when the applied commits vanish during the worktree stage", async () => {
    const s = subRepo();
    const { json } = await runScriptHere(
      s.repo,
      "echo 1 > one.txt && git add one.txt && git commit -qm one && echo d > d.txt",
    );
    const t = addTarget(s, "t");
    const crash = { TANDEM_TEST_CRASH_AT: "apply:after-worktree-patch" };
    expect(sub(s.repo, ["apply", json.id, "--target", t], crash).code).toBe(-1);
    g(t, "reset", "-q", "--hard", s.base);
    rmSync(join(t, "d.txt"), { force: true });
    const r = await subHere(s.repo, ["apply", json.id, "--target", t]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no longer contains the applied commits/);
    // --expected-head on a retry is compared with the recorded fence.
    expect((await subHere(s.repo, ["apply", json.id, "--target", t, "--expected-head", "HEAD"])).code).toBe(
      1,
    );
  });

  it("reports a completed apply as done only while its work is still there", async () => {
    const s = subRepo();
    const commits = await runScriptHere(
      s.repo,
      "echo a > a.txt && git add a.txt && git commit -qm a && echo more >> README.md",
    );
    const t = addTarget(s, "t");
    expectOk(await subHere(s.repo, ["apply", commits.json.id, "--target", t]));
    g(t, "reset", "-q", "--hard", s.base);
    const gone = await subHere(s.repo, ["apply", commits.json.id, "--target", t]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/no longer contains the post-apply HEAD/);

    const dirty = await runScriptHere(s.repo, "echo more >> README.md && echo n > n.txt");
    const u = addTarget(s, "u");
    expectOk(await subHere(s.repo, ["apply", dirty.json.id, "--target", u]));
    // Later edits, and commits of the applied work, still count as applied.
    writeFiles(u, { "n.txt": "n\nedited\n" });
    expect((await subHere(s.repo, ["apply", dirty.json.id, "--target", u])).stdout).toMatch(
      /already applied/,
    );
    g(u, "add", "-A");
    g(u, "commit", "-qm", "keep it");
    expectOk(await subHere(s.repo, ["apply", dirty.json.id, "--target", u]));
    // Discarded: every path back at its pre-apply content.
    g(u, "reset", "-q", "--hard", s.base);
    const discarded = await subHere(s.repo, ["apply", dirty.json.id, "--target", u]);
    expect(discarded.code).toBe(1);
    expect(discarded.stderr).toMatch(
      /discarded since \(README.md, n.txt are back at their pre-apply content\)/,
    );
  });

  it("never offers a landed commit again after a second capture", async () => {
    const s = subRepo();
    const { json } = await runScriptHere(s.repo, "echo 1 > one.txt && git add one.txt && git commit -qm one");
    const a = addTarget(s, "a");
    expectOk(await subHere(s.repo, ["apply", json.id, "--target", a]));
    writeFiles(json.worktree, { "two.txt": "2\n" });
    g(json.worktree, "add", "two.txt");
    g(json.worktree, "commit", "-qm", "two");
    writeFiles(json.worktree, { "later.txt": "later\n" });
    const cap = await subHere(s.repo, ["capture", json.id, "--json"]);
    expectOk(cap);
    expect(JSON.parse(cap.stdout)).toMatchObject({
      number: 2,
      commitCount: 2,
      series: [{ target: a, commitCount: 1 }],
    });
    const dry = await subHere(s.repo, ["apply", json.id, "--target", a, "--dry-run"]);
    expect(dry.stdout).toMatch(/1 commit\(s\) and the uncommitted changes would apply/);
    expectOk(await subHere(s.repo, ["apply", json.id, "--target", a]));
    expect(subjects(a, s.base)).toEqual(["one", "two"]);
    expect(readFileSync(join(a, "later.txt"), "utf8")).toBe("later\n");
    // A target that never had the first capture gets everything.
    const b = addTarget(s, "b");
    expectOk(await subHere(s.repo, ["apply", json.id, "--target", b]));
    expect(subjects(b, s.base)).toEqual(["one", "two"]);
  });

  it("--only refuses an artifact touching a path outside the prefixes, rename sources included", async () => {
    const s = subRepo({
      "old/x.txt": "x\n".repeat(20),
      "old/z.txt": "z\n".repeat(20),
      "src/keep.txt": "k\n",
    });
    const { json } = await runScriptHere(
      s.repo,
      "mkdir -p src && git mv old/x.txt src/x.txt && git commit -qm 'move x' && mv old/z.txt src/z.txt",
    );
    const r = await subHere(s.repo, ["apply", json.id, "--only", "src"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/outside --only src: old\/x.txt, old\/z.txt; nothing was applied/);
    expect(head(s.repo)).toBe(s.base);
    expect(g(s.repo, "status", "--porcelain")).toBe("");
    expectOk(await subHere(s.repo, ["apply", json.id, "--only", "src/", "old"]));
    expect(existsSync(join(s.repo, "src", "z.txt"))).toBe(true);
  });

  it("reads the patch paths afresh for a capture recorded before they were kept", async () => {
    const s = subRepo({ "old/z.txt": "z\n".repeat(20), "src/keep.txt": "k\n" });
    const { json } = await runScriptHere(s.repo, "mkdir -p src && mv old/z.txt src/z.txt");
    // An older tandem wrote capture events without patchPaths.
    const db = openDb(join(s.repo, ".git", "tandem"));
    try {
      raw(db)
        .prepare("UPDATE events SET data = json_remove(data, '$.patchPaths') WHERE kind = 'capture.recorded'")
        .run();
    } finally {
      db.close();
    }
    const r = await subHere(s.repo, ["apply", json.id, "--only", "src"]);
    expect(r.stderr).toMatch(/outside --only src: old\/z.txt; nothing was applied/);
    expectOk(await subHere(s.repo, ["apply", json.id]));
    expect(existsSync(join(s.repo, "src", "z.txt"))).toBe(true);
  });

  it("refuses a capture that skipped work over the size cap unless acknowledged", async () => {
    const s = subRepo({
      "README.md": "hello\n",
      ".tandem/config.jsonc": '{ "subagents": { "capture": { "maxPatchBytes": 200 } } }\n',
    });
    const { res, json } = await runScriptHere(
      s.repo,
      "echo c > c.txt && git add c.txt && git commit -qm small && seq 1 500 > big.txt",
    );
    expect(res.code).toBe(1);
    expect(json.capture!.uncaptured).toEqual([{ reason: "patch-size-exceeded", paths: ["big.txt"] }]);
    const refused = await subHere(s.repo, ["apply", json.id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/patch-size-exceeded: big.txt.*--acknowledge-uncaptured/);
    expect((await subHere(s.repo, ["apply", json.id, "--dry-run"])).code).toBe(1);
    expect((await subHere(s.repo, ["remove", json.id])).code).toBe(1);
    const ack = await subHere(s.repo, ["apply", json.id, "--acknowledge-uncaptured"]);
    expectOk(ack);
    expect(ack.stdout).toMatch(/warning: .*patch-size-exceeded/);
    expect(subjects(s.repo, s.base)).toEqual(["small"]);
    expect(existsSync(join(s.repo, "big.txt"))).toBe(false);
    expectOk(await subHere(s.repo, ["remove", json.id]));
  });

  it("refuses a staged index for commits, and an expected head that differs", async () => {
    const s = subRepo();
    const { json } = await runScriptHere(s.repo, "echo a > a.txt && git add a.txt && git commit -qm a");
    writeFiles(s.repo, { "s.txt": "s\n" });
    g(s.repo, "add", "s.txt");
    expect((await subHere(s.repo, ["apply", json.id])).stderr).toMatch(/staged changes \(s.txt\)/);
    g(s.repo, "reset", "-q");
    expect((await subHere(s.repo, ["apply", json.id, "--expected-head", "HEAD"])).code).toBe(0);
    const t = addTarget(s, "t");
    expect(
      (await subHere(s.repo, ["apply", json.id, "--target", t, "--expected-head", head(s.repo)])).stderr,
    ).toMatch(/not --expected-head/);
  });
});
