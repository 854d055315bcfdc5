import { describe, expect, it } from "vitest";
import { CLIENTS } from "../../../src/clients/index.js";
import { PROJECT_WIRING } from "../../../src/config/project-wiring.js";
import { hooksDirOf, hooksPathSetting } from "../../../src/core/git/hooks-path.js";
import { planTargets, type TargetFacts, type WiringGuard } from "../../../src/core/guards/target-plan.js";
import { type WiringFacts, wiringFile } from "../../../src/core/guards/wiring.js";
import type { Classification } from "../../../src/core/paths/roots.js";

const FACTS: WiringFacts = {
  projectFiles: PROJECT_WIRING,
  tops: ["/w/proj"],
  commonDir: "/w/proj/.git",
  hooksDir: null,
};
const WITH_ROOT_BELOW_TOP: WiringFacts = { ...FACTS, tops: ["/w/proj/app", "/w/proj"] };
const HOOKS_PATH: WiringFacts = { ...FACTS, hooksDir: "/w/proj/.githooks" };
const LINKED: WiringFacts = {
  projectFiles: PROJECT_WIRING,
  tops: ["/w/wt"],
  commonDir: "/w/proj/.git",
  hooksDir: null,
};

describe("wiringFile", () => {
  it.each<[string, WiringFacts, string, string | null]>([
    ["Claude's settings", FACTS, "/w/proj/.claude/settings.json", "Claude Code's hooks"],
    ["Claude's local settings", FACTS, "/w/proj/.claude/settings.local.json", "Claude Code's local hooks"],
    ["Codex's hooks", FACTS, "/w/proj/.codex/hooks.json", "Codex's hooks"],
    [
      "Codex's config, which can turn hooks off",
      FACTS,
      "/w/proj/.codex/config.toml",
      "Codex's hook settings",
    ],
    ["Cursor's hooks", FACTS, "/w/proj/.cursor/hooks.json", "Cursor's hooks"],
    ["the project config", FACTS, "/w/proj/.tandem/config.jsonc", "Tandem's project configuration"],
    ["the pre-commit hook", FACTS, "/w/proj/.git/hooks/pre-commit", "the git pre-commit hook"],
    ["the post-commit hook", FACTS, "/w/proj/.git/hooks/post-commit", "the git post-commit hook"],
    ["the post-checkout hook", FACTS, "/w/proj/.git/hooks/post-checkout", "the git post-checkout hook"],
    ["git's config (core.hooksPath)", FACTS, "/w/proj/.git/config", "git's config (core.hooksPath)"],
    [
      "a hook in core.hooksPath",
      HOOKS_PATH,
      "/w/proj/.githooks/post-checkout",
      "the git post-checkout hook (core.hooksPath)",
    ],
    ["the directory holding Claude's settings", FACTS, "/w/proj/.claude", "Claude Code's hooks"],
    ["the git directory", FACTS, "/w/proj/.git", "the git pre-commit hook"],
    ["the hooks directory", FACTS, "/w/proj/.git/hooks", "the git pre-commit hook"],
    [
      "the core.hooksPath directory",
      HOOKS_PATH,
      "/w/proj/.githooks",
      "the git pre-commit hook (core.hooksPath)",
    ],
    ["an unnormalized spelling", FACTS, "/w/proj/src/../.claude//settings.json", "Claude Code's hooks"],
    [
      "the config at a root below the top",
      WITH_ROOT_BELOW_TOP,
      "/w/proj/app/.tandem/config.jsonc",
      "Tandem's project configuration",
    ],
    [
      "Claude's settings at the top above the root",
      WITH_ROOT_BELOW_TOP,
      "/w/proj/.claude/settings.json",
      "Claude Code's hooks",
    ],
    ["a linked worktree's shared hooks", LINKED, "/w/proj/.git/hooks/pre-commit", "the git pre-commit hook"],
    ["a linked worktree's own settings", LINKED, "/w/wt/.cursor/hooks.json", "Cursor's hooks"],
  ])("counts %s", (_name, facts, path, what) => {
    expect(wiringFile(path, facts)?.what).toBe(what);
  });

  it.each<[string, WiringFacts, string]>([
    ["an ordinary file beside the settings", FACTS, "/w/proj/.claude/agents/reviewer.md"],
    ["a file beside the project config", FACTS, "/w/proj/.tandem/notes.md"],
    ["an ordinary source file", FACTS, "/w/proj/src/settings.json"],
    ["a nested project's settings", FACTS, "/w/proj/vendor/lib/.claude/settings.json"],
    ["a git hook Tandem does not install", FACTS, "/w/proj/.git/hooks/pre-push"],
    ["a file named like a hook in the work tree", FACTS, "/w/proj/scripts/pre-commit"],
    [
      "the old hooks directory's file once core.hooksPath moved them",
      HOOKS_PATH,
      "/w/proj/.githooks/pre-push",
    ],
    ["the project top itself", FACTS, "/w/proj"],
    ["a directory above the project", FACTS, "/w"],
    ["the repository top above the root", WITH_ROOT_BELOW_TOP, "/w/proj"],
    ["another repository's settings", FACTS, "/w/other/.claude/settings.json"],
    ["the main checkout's settings, from a linked worktree", LINKED, "/w/proj/.claude/settings.json"],
  ])("does not count %s", (_name, facts, path) => {
    expect(wiringFile(path, facts)).toBeNull();
  });

  it("has a row for every client's settings file", () => {
    const rows = PROJECT_WIRING.map((r) => r.file);
    for (const client of Object.values(CLIENTS)) expect(rows).toContain(client.settingsFile);
  });
});

describe("hooksPathSetting", () => {
  it.each<[string, string, string | null]>([
    ["unset", "[core]\n\tbare = false\n", null],
    ["plain", "[core]\n\thooksPath = .githooks\n", ".githooks"],
    ["any case, no spaces", "[Core]\nHOOKSPATH=/abs/hooks\n", "/abs/hooks"],
    ["quoted, with a comment", '[core]\n\thooksPath = "dir with space" # moved\n', "dir with space"],
    ["escaped quote", '[core]\n\thooksPath = "a\\"b"\n', 'a"b'],
    ["semicolon comment", "[core]\n\thooksPath = x ; no\n", "x"],
    ["the last one wins", "[core]\n\thooksPath = a\n[core]\n\thooksPath = b\n", "b"],
    ["on the section line", "[core] hooksPath = inline\n", "inline"],
    ["another section's key", "[alias]\n\thooksPath = no\n", null],
    ["a core subsection", '[core "x"]\n\thooksPath = no\n', null],
    ["a commented-out line", "[core]\n#\thooksPath = no\n", null],
    ["empty, which git treats as unset", "[core]\n\thooksPath =\n", null],
  ])("%s", (_name, text, expected) => {
    expect(hooksPathSetting(text)).toBe(expected);
  });

  it.each<[string, string]>([
    [".githooks", "/w/proj/.githooks"],
    ["/abs/hooks", "/abs/hooks"],
    ["~/hooks", "/home/me/hooks"],
    ["../shared/hooks", "/w/shared/hooks"],
  ])("resolves %s from the top", (setting, dir) => {
    expect(hooksDirOf(setting, "/w/proj", "/home/me")).toBe(dir);
  });
});

const git: Classification = { kind: "git", root: "/w/proj", repoTop: "/w/proj" };
const at = (physical: string, lexical = physical): TargetFacts => ({
  raw: physical,
  ok: true,
  physical,
  lexical,
  escape: null,
  classification: git,
});
/** The user the agent is sent to installed Tandem as a devDependency: they run npx tandem. */
const guard = (allowed: boolean, command: string | null = null): WiringGuard => ({
  facts: FACTS,
  allowed,
  command,
  person: { reader: "person", launcher: "npx tandem" },
});

describe("planTargets and the wiring", () => {
  it("refuses a wiring file with protected-wiring, saying who may change it and how", () => {
    const plan = planTargets([at("/w/proj/.claude/settings.json")], false, guard(false));
    expect(plan.claim).toEqual([]);
    expect(plan.refused).toHaveLength(1);
    const [r] = plan.refused;
    expect(r?.rule).toBe("protected-wiring");
    expect(r?.reason).toMatch(/Claude Code's hooks/);
    expect(r?.reason).toMatch(/user/);
    expect(r?.reason).toContain("to run `npx tandem init` / `npx tandem deinit`");
    expect(r?.reason).toMatch(/TANDEM_ALLOW_WIRING_EDITS=1/);
  });

  it("names the wiring file inside a refused directory", () => {
    const plan = planTargets([at("/w/proj/.tandem")], false, guard(false));
    expect(plan.refused[0]?.reason).toContain("/w/proj/.tandem/config.jsonc");
  });

  it("refuses a symlink standing where a wiring file is read, by its lexical path", () => {
    const plan = planTargets(
      [at("/elsewhere/settings.json", "/w/proj/.claude/settings.json")],
      false,
      guard(false),
    );
    expect(plan.refused.map((r) => r.rule)).toEqual(["protected-wiring"]);
  });

  it("claims the ordinary file beside it and refuses only the wiring", () => {
    const plan = planTargets(
      [at("/w/proj/.claude/notes.md"), at("/w/proj/.codex/hooks.json")],
      false,
      guard(false),
    );
    expect(plan.claim.map((c) => c.path)).toEqual([".claude/notes.md"]);
    expect(plan.refused.map((r) => r.raw)).toEqual(["/w/proj/.codex/hooks.json"]);
  });

  it("claims a wiring file like any other when the person allowed wiring edits", () => {
    const plan = planTargets([at("/w/proj/.git/hooks/pre-commit")], false, guard(true));
    expect(plan.refused).toEqual([]);
    expect(plan.claim.map((c) => c.path)).toEqual([".git/hooks/pre-commit"]);
  });

  it.each<[string, string, boolean]>([
    ["an inline assignment", "TANDEM_ALLOW_WIRING_EDITS=1 claude -p 'fix the hooks'", true],
    ["an export", "export TANDEM_ALLOW_WIRING_EDITS=1; codex exec x", true],
    ["env", "env TANDEM_ALLOW_WIRING_EDITS=1 cursor-agent", true],
    ["a search for the name", "grep -rn TANDEM_ALLOW_WIRING_EDITS src", false],
  ])("judges a shell command handing out the permission: %s", (_name, command, refused) => {
    const plan = planTargets([], false, guard(false, command));
    expect(plan.refused.map((r) => r.rule)).toEqual(refused ? ["protected-wiring"] : []);
    if (refused) expect(plan.refused[0]?.reason).toMatch(/only the person who starts an agent/);
    // An agent the person already allowed hands on nothing it did not have.
    expect(planTargets([], false, guard(true, command)).refused).toEqual([]);
  });

  it("leaves the wiring to the claim rules without a guard", () => {
    const plan = planTargets([at("/w/proj/.tandem/config.jsonc")], false);
    expect(plan.refused).toEqual([]);
    expect(plan.claim).toHaveLength(1);
  });
});
