import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { claudeBash, claudeWrite, denied, fakeAgent } from "../helpers/hooks.js";
import { initRepo } from "../helpers/repo.js";
import { cleanEnv, type Env, scratch, startServer, thinHook, watchServer } from "./support.js";

/**
 * Issue 25, deliverable 3 through the resident server: the server reads a shell command with the
 * CDPATH of the agent that runs it (the thin client forwards it), not its own environment.
 */
/** A `node` that notes every run: a hook answered by the server runs none. */
function nodeSpy(base: string): { env: Env; runs: () => number } {
  const log = join(base, "node-runs.log");
  const spy = join(base, "node-spy");
  writeFileSync(spy, `#!/bin/sh\necho ran >> '${log}'\nexec '${process.execPath}' "$@"\n`);
  chmodSync(spy, 0o755);
  return {
    env: { TANDEM_NODE: spy },
    runs: () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").length - 1 : 0),
  };
}

describe("a cd searched through the agent's CDPATH, answered by the server", () => {
  it("runs the command under the safety net, and A gets its file back", async () => {
    const base = scratch();
    const repo = initRepo(join(base, "repo"), { "src/t.txt": "committed\n", "docs/README.md": "d\n" });
    watchServer(repo);
    await startServer(repo);
    const spy = nodeSpy(base);
    const a = cleanEnv({ ...fakeAgent(), ...spy.env });
    const b = cleanEnv({ ...fakeAgent(), ...spy.env, CDPATH: repo });

    const write = claudeWrite(repo, "A", "src/t.txt", "A's edit\n");
    expect(denied(await thinHook("claude-code", "pre-tool-use", write, { cwd: repo, env: a }))).toBeNull();
    writeFileSync(join(repo, "src/t.txt"), "A's edit\n");
    await thinHook(
      "claude-code",
      "post-tool-use",
      { ...write, hook_event_name: "PostToolUse" },
      { cwd: repo, env: a },
    );

    // From docs/, `cd src` goes to the repository's src through CDPATH, not to docs/src.
    const docs = join(repo, "docs");
    const command = "cd src && echo B > t.txt";
    const pre = await thinHook("claude-code", "pre-tool-use", claudeBash(docs, "B", command), {
      cwd: docs,
      env: b,
    });
    expect(denied(pre)).toBeNull();
    execFileSync("bash", ["-c", command], { cwd: docs, env: b, stdio: "ignore" });
    const post = await thinHook(
      "claude-code",
      "post-tool-use",
      claudeBash(docs, "B", command, "PostToolUse"),
      {
        cwd: docs,
        env: b,
      },
    );
    expect(readFileSync(join(repo, "src/t.txt"), "utf8")).toBe("B\n");
    expect(post.stdout).toMatch(/overwrote other live agents' uncommitted work: src\/t\.txt/);

    const prompt = { session_id: "A", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "go on" };
    const told = await thinHook("claude-code", "user-prompt-submit", prompt, { cwd: repo, env: a });
    expect(told.stdout).toContain("tandem recover src/t.txt");
    expect(spy.runs()).toBe(0);

    expect(tandem(["recover", "src/t.txt", "--session", "A"], { cwd: repo }).code).toBe(0);
    expect(readFileSync(join(repo, "src/t.txt"), "utf8")).toBe("A's edit\n");
  });

  it("takes cd's home from the agent, not from the server's own environment", async () => {
    const base = scratch();
    const repo = initRepo(join(base, "repo"), { "src/t.txt": "committed\n" });
    watchServer(repo);
    await startServer(repo);
    const a = cleanEnv(fakeAgent());
    const b = cleanEnv({ ...fakeAgent(), HOME: join(repo, "src") });
    const write = claudeWrite(repo, "A", "src/t.txt", "A's edit\n");
    expect(denied(await thinHook("claude-code", "pre-tool-use", write, { cwd: repo, env: a }))).toBeNull();
    writeFileSync(join(repo, "src/t.txt"), "A's edit\n");

    const call = claudeBash(repo, "B", "cd && echo B > t.txt");
    const refused = await thinHook("claude-code", "pre-tool-use", call, { cwd: repo, env: b });
    expect(denied(refused)).toMatch(/src\/t\.txt.*held by agent-/s);
    expect(readFileSync(join(repo, "src/t.txt"), "utf8")).toBe("A's edit\n");
  });
});
