import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, statSync, symlinkSync } from "node:fs";
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
});
