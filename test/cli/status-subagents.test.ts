import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { claudeWrite, hook } from "../helpers/hooks.js";
import { initRepo, tempDir } from "../helpers/repo.js";

describe("the status box and sub-agents", () => {
  it("shows each sub-agent of the session with how it ended, what was captured and where it was applied", () => {
    const repo = initRepo(join(tempDir(), "repo"));
    hook("claude-code", "pre-tool-use", claudeWrite(repo, "parent", "a.txt"), { cwd: repo });
    const env = {
      TANDEM_SESSION: "parent",
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    };
    const run = tandem(
      [
        "sub",
        "run",
        "--client",
        "exec",
        "--name",
        "kid",
        "--",
        "sh",
        "-c",
        "echo x > x.txt && git add x.txt && git commit -qm x",
      ],
      { cwd: repo, env },
    );
    expect(run.code, run.stderr).toBe(0);
    const box = tandem(["status"], { cwd: repo, env }).stdout;
    expect(box).toMatch(/\| subagents +\|\n\| {3}kid: exit 0; 1 commit; not applied +\|/);
    expect(tandem(["sub", "apply", "kid"], { cwd: repo, env }).code).toBe(0);
    expect(tandem(["status"], { cwd: repo, env }).stdout).toMatch(/kid: exit 0; 1 commit; applied/);
  });
});
