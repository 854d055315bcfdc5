import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { initRepo, tempDir } from "../helpers/repo.js";
import { loginTandem, read, readJson, run, tandemShim, tree } from "./helpers.js";

const CLAUDE_ONLY = ["--clients", "claude-code", "--no-git-hooks"];
const TEAM_SETTINGS =
  '{\n  // the team\'s own rules\n  "permissions": {\n    "allow": ["Bash(make test)"]\n  }\n}\n';

describe("Claude allow rules through the real CLI", () => {
  it("adds the ritual's rules after the team's, reports a missing one, and deinit restores the file", () => {
    const dir = initRepo(join(tempDir(), "repo"), { ".claude/settings.json": TEAM_SETTINGS });
    const file = join(dir, ".claude/settings.json");
    const env = loginTandem();
    const init = run(["init", "--command", "tandem", ...CLAUDE_ONLY], dir, env).stdout;
    expect(init).toMatch(/updated +\.claude\/settings\.json: added 7 hooks, added 2 allow rules/);
    // The local file stays absent and unmentioned.
    expect(init).not.toContain("settings.local.json");
    const wired = read(file)!;
    expect(wired).toContain("// the team's own rules");
    expect(wired).toMatch(/"Bash\(make test\)",\s*"Bash\(tandem task:\*\)",\s*"Bash\(tandem status:\*\)"/);
    expect(run(["init", "--check"], dir, env).code).toBe(0);

    writeFileSync(file, wired.replace(/,\s*"Bash\(tandem status:\*\)"/, ""));
    const check = run(["init", "--check"], dir, env);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(".claude/settings.json: allow rule Bash(tandem status:*) missing");
    expect(run(["init"], dir, env).code).toBe(0);

    const before = tree(dir);
    const dry = run(["deinit", "--dry-run"], dir, env);
    expect(dry.stdout).toMatch(
      /would update +\.claude\/settings\.json: removed 7 Tandem hooks and 2 allow rules/,
    );
    expect(tree(dir)).toEqual(before);
    expect(run(["deinit"], dir).code).toBe(0);
    expect(read(file)).toBe(TEAM_SETTINGS);
  });

  it("gives a devDependency exact rules in the local file, which deinit deletes again", () => {
    const dir = initRepo(join(tempDir(), "repo"));
    const root = realpathSync(dir);
    tandemShim(join(dir, "node_modules", ".bin"));
    run(["init", "--command", "node_modules/.bin/tandem", ...CLAUDE_ONLY], dir);
    expect(readJson(join(dir, ".claude/settings.json")).permissions).toBeUndefined();
    expect(readJson(join(dir, ".claude/settings.local.json"))).toEqual({
      permissions: {
        allow: [
          `Bash(${root}/node_modules/.bin/tandem task:*)`,
          `Bash(${root}/node_modules/.bin/tandem status:*)`,
        ],
      },
    });
    expect(run(["deinit"], dir).stdout).toMatch(
      /deleted +\.claude\/settings\.local\.json \(held nothing but 2 allow rules\)/,
    );
    expect(read(join(dir, ".claude/settings.local.json"))).toBeNull();
  });
});
