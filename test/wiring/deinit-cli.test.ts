import { chmodSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PIN } from "../helpers/cli.js";
import { initRepo, tempDir, writeFiles } from "../helpers/repo.js";
import { read, run, tree } from "./helpers.js";

/** A repository that already has hooks and settings of its own. */
function busyRepo(): string {
  const dir = initRepo(join(tempDir(), "repo"));
  writeFiles(dir, {
    ".claude/settings.json": '{\n  "permissions": { "deny": ["Read(.env)"] }\n}\n',
    ".claude/settings.local.json": "{}\n",
    ".codex/hooks.json": JSON.stringify(
      { hooks: { Stop: [{ hooks: [{ type: "command", command: "./notify.sh" }] }] } },
      null,
      2,
    ),
    ".cursor/hooks.json": '{"version": 1, "hooks": {"stop": [{"command": "./notify.sh"}]}}',
    ".git/hooks/pre-commit": "#!/usr/bin/env bash\nnpm run lint\n",
  });
  chmodSync(join(dir, ".git/hooks/pre-commit"), 0o755);
  return dir;
}

describe("tandem deinit", () => {
  it("removes exactly what init added and keeps the project config", () => {
    const dir = busyRepo();
    const before = tree(dir);
    expect(run(["init", ...PIN], dir).code).toBe(0);
    const res = run(["deinit"], dir);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/kept +\.tandem\/config\.jsonc \(your project settings/);
    expect(res.stdout).toMatch(/deleted +\.git\/hooks\/post-commit \(held nothing but the Tandem block\)/);
    const after = tree(dir);
    expect(Object.keys(after).filter((f) => !(f in before))).toEqual([".tandem/config.jsonc"]);
    delete after[".tandem/config.jsonc"];
    expect(after).toEqual(before);
  });

  it("deletes settings files and folders that held only Tandem's hooks", () => {
    const dir = initRepo(join(tempDir(), "repo"));
    run(["init", ...PIN], dir);
    run(["deinit"], dir);
    for (const d of [".claude", ".codex", ".cursor", ".git/hooks/pre-commit"])
      expect(existsSync(join(dir, d))).toBe(false);
  });

  it("changes nothing when run again", () => {
    const dir = busyRepo();
    run(["init", ...PIN], dir);
    run(["deinit"], dir);
    const before = tree(dir);
    const res = run(["deinit"], dir);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("Nothing to remove: Tandem is not wired here.");
    expect(tree(dir)).toEqual(before);
  });

  it("leaves unselected clients and, with --no-git-hooks, the git hooks alone", () => {
    const dir = busyRepo();
    run(["init", ...PIN], dir);
    run(["deinit", "--clients", "cursor", "--no-git-hooks"], dir);
    expect(read(join(dir, ".cursor/hooks.json"))).toBe(
      '{"version": 1, "hooks": {"stop": [{"command": "./notify.sh"}]}}',
    );
    expect(read(join(dir, ".codex/hooks.json"))).toContain("hook codex stop");
    expect(read(join(dir, ".git/hooks/pre-commit"))).toContain("git-hook pre-commit");
  });
});
