/**
 * Decision 0033: mvdan-sh stays pinned, and an install where it cannot load fails closed. The
 * package here is this build's bundles with every dependency but mvdan-sh, as a broken or partial
 * install would be. A holds an uncommitted edit; B runs commands the quick parser cannot read, so
 * they need mvdan-sh. Nothing may crash or pass unseen: forged hook calls are still refused, and a
 * write the reader could not see runs under the safety net, so A gets its bytes back.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunResult } from "../helpers/cli.js";
import { TANDEM_BIN } from "../helpers/cli.js";
import { claudeBash, claudeWrite, denied, fakeAgent, type Payload } from "../helpers/hooks.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/** This build's bundles in a package whose node_modules has everything except mvdan-sh. */
function installWithoutParser(): string {
  const pkg = tempDir();
  const dist = join(pkg, "dist");
  mkdirSync(dist);
  for (const f of readdirSync(dirname(TANDEM_BIN)).filter((n) => n.endsWith(".cjs")))
    copyFileSync(join(dirname(TANDEM_BIN), f), join(dist, f));
  const modules = join(dirname(TANDEM_BIN), "..", "node_modules");
  mkdirSync(join(pkg, "node_modules"));
  for (const name of readdirSync(modules).filter((n) => n !== "mvdan-sh"))
    symlinkSync(join(modules, name), join(pkg, "node_modules", name));
  return join(dist, "tandem.cjs");
}

/** `tandem ARGS` run by the given bundle, as hooks and people run it. */
function run(bin: string, args: string[], cwd: string, env: Record<string, string>, input = ""): RunResult {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    input,
    encoding: "utf8",
    env: { ...process.env, XDG_CONFIG_HOME: "/nonexistent/tandem-test-xdg", ...env },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const hookBy = (bin: string, event: string, payload: Payload, cwd: string, env: Record<string, string>) =>
  run(bin, ["hook", "claude-code", event], cwd, env, JSON.stringify(payload));

describe("a shell parser that cannot load", () => {
  it("is not installed in the package under test, while the real build has it", () => {
    const bin = installWithoutParser();
    const probe = `try { require.resolve("mvdan-sh"); console.log("found") } catch { console.log("missing") }`;
    const from = (dir: string) =>
      execFileSync(process.execPath, ["-e", probe], { cwd: dir, encoding: "utf8" }).trim();
    expect(from(dirname(bin))).toBe("missing");
    expect(from(dirname(TANDEM_BIN))).toBe("found");
  });

  it("still refuses a forged tandem hook call in a command only mvdan-sh reads", () => {
    const bin = installWithoutParser();
    const repo = initRepo(join(tempDir(), "repo"), { "f.txt": "committed\n" });
    const command = 'S="$(date)"; tandem hook claude-code stop';
    const r = hookBy(bin, "pre-tool-use", claudeBash(repo, "B", command), repo, fakeAgent());
    expect(r.code).toBe(0);
    expect(denied(r)).toContain("calls `tandem hook`");
  });

  it("lets a write it cannot see run under the safety net, so the peer it clobbers gets its bytes back", () => {
    const bin = installWithoutParser();
    const repo = initRepo(join(tempDir(), "repo"), { "f.txt": "committed\n" });
    const a = fakeAgent();
    const b = fakeAgent();
    expect(denied(hookBy(TANDEM_BIN, "pre-tool-use", claudeWrite(repo, "A", "f.txt"), repo, a))).toBeNull();
    writeFileSync(join(repo, "f.txt"), "A's uncommitted edit\n");
    const command = 'F=f.txt; echo "B was here" > "$F"';

    // With its parser, Tandem sees the write to A's file and refuses it up front.
    expect(denied(hookBy(TANDEM_BIN, "pre-tool-use", claudeBash(repo, "B", command), repo, b))).toContain(
      "f.txt",
    );

    // Without it, the command is opaque: it runs, with a copy of A's uncommitted bytes kept first.
    const pre = hookBy(bin, "pre-tool-use", claudeBash(repo, "B", command), repo, b);
    expect(pre.code).toBe(0);
    expect(denied(pre)).toBeNull();
    execFileSync("bash", ["-c", command], { cwd: repo });
    hookBy(bin, "post-tool-use", claudeBash(repo, "B", command, "PostToolUse"), repo, b);
    expect(readFileSync(join(repo, "f.txt"), "utf8")).toBe("B was here\n");

    const prompt = { session_id: "A", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "go on" };
    expect(hookBy(bin, "user-prompt-submit", prompt, repo, a).stdout).toContain("tandem recover f.txt");
    const recovered = run(bin, ["recover", "f.txt", "--session", "A"], repo, a);
    expect(recovered.stderr).toBe("");
    expect(readFileSync(join(repo, "f.txt"), "utf8")).toBe("A's uncommitted edit\n");
  });
});
