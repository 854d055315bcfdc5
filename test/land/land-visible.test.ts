import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { divergenceFinding } from "../../src/core/land/divergence.js";
import { landingLine } from "../../src/core/land/landing-line.js";
import { agentShell } from "../helpers/agent-shell.js";
import { tandem } from "../helpers/cli.js";
import { fakeAgent } from "../helpers/hooks.js";
import { g } from "../helpers/repo.js";
import { agentEdits, commit, landJson, landWorld, sessionName } from "./land-world.js";

const landCheck = (repo: string) => {
  const r = tandem(["doctor", "--json"], { cwd: repo });
  return (
    JSON.parse(r.stdout).checks as { check: string; level: string; detail: string; fix?: string }[]
  ).find((c) => c.check === "land");
};

describe("doctor on the checkout's branch", () => {
  const standing = { branch: "main", upstream: "origin/main", ahead: 0, behind: 0, landing: null };
  it.each([
    [{ ...standing }, "ok", /in step/],
    [{ ...standing, ahead: 2 }, "info", /2 local commit\(s\) not pushed yet/],
    [{ ...standing, behind: 3 }, "info", /3 upstream commit\(s\) not here yet/],
    [
      { ...standing, ahead: 2, behind: 3 },
      "problem",
      /has diverged: 2 local .* 3 upstream .* no landing is running/,
    ],
    [{ ...standing, ahead: 2, behind: 3, landing: 42 }, "ok", /a landing is in progress \(pid 42\)/],
  ])("%o is %s", (b, level, detail) => {
    const f = divergenceFinding(b);
    expect(f.level).toBe(level);
    expect(f.detail).toMatch(detail);
    if (level === "problem") expect(f.fix).toMatch(/^run `tandem land`/);
  });

  it("reports a diverged branch nobody is landing, with the fix, and is quiet once it landed or while a landing runs", () => {
    const w = landWorld();
    const a = w.checkout("a");
    const b = w.checkout("b");
    commit(b, { "b.txt": "b\n" }, "b's work");
    g(b, "push", "-q", "origin", "main");
    commit(a, { "a.txt": "a\n" }, "a's work");
    g(a, "fetch", "-q");
    expect(landCheck(a)).toMatchObject({
      level: "problem",
      fix: expect.stringMatching(/^run `tandem land`/),
    });
    const lock = join(a, ".git", "tandem", "land.lock");
    mkdirSync(dirname(lock), { recursive: true });
    const live = fakeAgent().CLAUDE_PID;
    writeFileSync(lock, live);
    expect(landCheck(a)).toMatchObject({ level: "ok", detail: expect.stringContaining(`pid ${live}`) });
    writeFileSync(lock, "4194305");
    expect(landCheck(a)?.level).toBe("problem");
    expect(landJson(a).result.outcome).toBe("pushed");
    expect(landCheck(a)).toMatchObject({ level: "ok", detail: expect.stringMatching(/in step/) });
  });
});

describe("the person's overview", () => {
  it.each([
    [
      "land.pushed",
      { branch: "main", outcome: "pushed", commits: 2, rebased: true },
      true,
      "main: 2 commit(s) pushed after a rebase",
    ],
    ["land.pushed", { branch: "main", outcome: "up-to-date", commits: 0 }, true, "main: up-to-date"],
    [
      "land.pushed",
      { branch: "main", outcome: "pushed", commits: 1, rejected: ["abc"] },
      false,
      "main: 1 commit(s) pushed; 1 turned away by land.check",
    ],
    [
      "land.refused",
      { branch: "main", reason: "held", paths: [{ path: "notes.txt", holders: ["x"] }] },
      false,
      "main: refused, someone's work is on notes.txt",
    ],
    [
      "land.refused",
      { branch: "main", reason: "check", paths: [], message: "npm test exited 1" },
      false,
      "main: land.check failed (npm test exited 1)",
    ],
    ["land.conflicted", { branch: "main", paths: ["a", "b"] }, false, "main: rebase conflict on a, b"],
  ])("describes %s %o", (kind, data, ok, text) => {
    expect(landingLine(kind, data)).toEqual({ ok, text });
  });

  it("lists the latest landings, newest first, with who ran them and whether they landed", () => {
    const w = landWorld();
    const a = w.checkout("a");
    const b = w.checkout("b");
    const p = agentShell();
    agentEdits(a, "P", p, "draft.txt", "P's draft\n");
    commit(a, { "a.txt": "a\n" }, "a's work");
    expect(tandem(["land", "--session", sessionName(a, "P")], { cwd: a, env: p, inside: p }).code).toBe(0);
    g(b, "pull", "-q", "--ff-only");
    commit(b, { "notes.txt": "b rewrote the notes\n" }, "b's notes");
    g(b, "push", "-q", "origin", "main");
    agentEdits(a, "Q", fakeAgent(), "notes.txt", "Q's unsaved thoughts\n");
    commit(a, { "a2.txt": "a\n" }, "a's second");
    expect(landJson(a).code).toBe(1);
    const out = tandem(["status"], { cwd: a }).stdout;
    const section = out.slice(out.indexOf("Recent landings"));
    expect(section.split("\n").slice(0, 4)).toEqual([
      "Recent landings (tandem land):",
      expect.stringMatching(/^ {2}✗ \d+s ago {2}a person {2}main: refused, someone's work is on notes\.txt$/),
      expect.stringMatching(
        new RegExp(`^  ✓ \\d+s ago  ${sessionName(a, "P")}  main: 1 commit\\(s\\) pushed$`),
      ),
      "  the latest did not land all the work: `tandem land` again says why",
    ]);
  });
});
