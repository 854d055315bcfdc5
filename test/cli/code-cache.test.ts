import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { TANDEM_BIN } from "../helpers/cli.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/** A private copy of the built package, so its caches start empty and nothing else writes them. */
function privateDist(): string {
  const pkg = tempDir();
  const dist = join(pkg, "dist");
  mkdirSync(dist);
  for (const f of readdirSync(dirname(TANDEM_BIN)).filter((n) => n.endsWith(".cjs"))) {
    copyFileSync(join(dirname(TANDEM_BIN), f), join(dist, f));
  }
  symlinkSync(join(dirname(TANDEM_BIN), "..", "node_modules"), join(pkg, "node_modules"));
  return join(dist, "tandem.cjs");
}

function run(bin: string, cwd: string, args: string[], input = "") {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, input, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("the V8 code cache", () => {
  it("keeps one cache per command and hook event, written once, with the same answers as without", () => {
    const bin = privateDist();
    const repo = initRepo(join(tempDir(), "repo"));
    const caches = () =>
      readdirSync(dirname(bin))
        .filter((f) => f.endsWith(".v8cache"))
        .sort();
    const first = run(bin, repo, ["sessions", "--json"]);
    const written = statSync(join(dirname(bin), "cli-light.cjs.sessions.v8cache")).mtimeMs;
    expect(run(bin, repo, ["sessions", "--json"])).toEqual(first);
    expect(statSync(join(dirname(bin), "cli-light.cjs.sessions.v8cache")).mtimeMs).toBe(written);
    run(bin, repo, ["sub", "list"]);
    const payload = JSON.stringify({ session_id: "s1", cwd: repo, hook_event_name: "Notification" });
    run(bin, repo, ["hook", "claude-code", "notification"], payload);
    run(bin, repo, ["hook", "codex", "notification"], payload);
    expect(caches()).toEqual([
      "cli-light.cjs.sessions.v8cache",
      "cli.cjs.sub-list.v8cache",
      "hook.cjs.hook-notification.v8cache",
    ]);
  });

  it("writes no cache for a command word that does not exist", () => {
    const bin = privateDist();
    const repo = initRepo(join(tempDir(), "repo"));
    expect(run(bin, repo, ["frobnicate"]).code).toBe(2);
    expect(run(bin, repo, ["sub", "frob"]).code).toBe(2);
    expect(run(bin, repo, ["sessions", "--json"]).code).toBe(0);
    const caches = readdirSync(dirname(bin)).filter((f) => f.endsWith(".v8cache"));
    expect(caches).toEqual(["cli-light.cjs.sessions.v8cache"]);
  });

  it("loads the shell parser only for commands the quick parser cannot read, through its own cache", () => {
    const bin = privateDist();
    const repo = initRepo(join(tempDir(), "repo"));
    const parserCache = join(dirname(bin), "mvdan-sh.v8cache");
    const shell = (command: string, id: string) =>
      run(
        bin,
        repo,
        ["hook", "claude-code", "pre-tool-use"],
        JSON.stringify({
          session_id: "s1",
          cwd: repo,
          hook_event_name: "PreToolUse",
          tool_name: "Bash",
          tool_input: { command },
          tool_use_id: id,
        }),
      );
    expect(shell("npm test 2>&1 | tail -5", "t1").code).toBe(0);
    expect(existsSync(parserCache)).toBe(false);
    const first = shell('echo "$HOME" > out.txt', "t2");
    expect(existsSync(parserCache)).toBe(true);
    const written = statSync(parserCache).mtimeMs;
    expect(shell('echo "$HOME" > out.txt', "t3")).toEqual(first);
    expect(statSync(parserCache).mtimeMs).toBe(written);
  });
});
