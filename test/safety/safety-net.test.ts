import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeBash, claudeWrite, denied, fakeAgent, ledger } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";
import { initRepo, tempDir } from "../helpers/repo.js";
import { agentEditsHere } from "../land/land-here.js";

interface World {
  repo: string;
  a: Record<string, string>;
  b: Record<string, string>;
}

/** A holds f.txt with uncommitted edits; B is a second live session in the same checkout. */
async function world(): Promise<World> {
  const repo = initRepo(join(tempDir(), "repo"), { "f.txt": "committed\n", "README.md": "hi\n" });
  const a = fakeAgent();
  const b = fakeAgent();
  // One call: the post-tool-use carries the pre-tool-use's id, as Claude Code sends it.
  await agentEditsHere(repo, "A", a, "f.txt", "A's precious edit\n");
  await hook(
    "claude-code",
    "user-prompt-submit",
    { session_id: "B", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "tidy up" },
    { cwd: repo, env: b },
  );
  return { repo, a, b };
}

/** B's shell command through the real pre-tool hook, the command itself, and the real post-tool hook. */
async function runAsB(w: World, command: string): Promise<{ refused: string | null; post: string }> {
  const pre = await hook("claude-code", "pre-tool-use", claudeBash(w.repo, "B", command), {
    cwd: w.repo,
    env: w.b,
  });
  const refused = denied(pre);
  if (refused !== null) return { refused, post: "" };
  try {
    execFileSync("bash", ["-c", command], { cwd: w.repo, stdio: "ignore" });
  } catch {
    // A failing command still ran; what it did is what counts.
  }
  const post = await hook("claude-code", "post-tool-use", claudeBash(w.repo, "B", command, "PostToolUse"), {
    cwd: w.repo,
    env: w.b,
  });
  return { refused: null, post: post.stdout };
}

const read = (w: World) => readFileSync(join(w.repo, "f.txt"), "utf8");

describe("the safety net under commands Tandem cannot read", () => {
  it("preserves A's bytes before B's python write, warns B, tells A, and recover puts them back", async () => {
    const w = await world();
    const { refused, post } = await runAsB(w, `python3 -c "open('f.txt','w').write('B was here')"`);
    expect(refused).toBeNull();
    expect(read(w)).toBe("B was here");
    expect(post).toMatch(/overwrote other live agents' uncommitted work: f\.txt/);
    const kinds = ledger(w.repo).events.map((e) => e.kind);
    expect(kinds).toContain("work.preserved");
    expect(kinds).toContain("work.clobbered");

    const prompt = await hook(
      "claude-code",
      "user-prompt-submit",
      { session_id: "A", cwd: w.repo, hook_event_name: "UserPromptSubmit", prompt: "go on" },
      { cwd: w.repo, env: w.a },
    );
    expect(prompt.stdout).toMatch(/tandem recover f\.txt/);
    const again = await hook(
      "claude-code",
      "user-prompt-submit",
      { session_id: "A", cwd: w.repo, hook_event_name: "UserPromptSubmit", prompt: "more" },
      { cwd: w.repo, env: w.a },
    );
    expect(again.stdout).not.toMatch(/overwrote your uncommitted work/);

    const rec = await cli(["recover", "f.txt", "--session", "A"], { cwd: w.repo });
    expect(rec.stderr).toBe("");
    expect(rec.code).toBe(0);
    expect(read(w)).toBe("A's precious edit\n");
    expect(rec.stdout).toMatch(/kept as version 2/);
  });

  it("catches B's overwrite that keeps the size and sets the mtime back with os.utime (issue 37.2)", async () => {
    const w = await world();
    const before = readFileSync(join(w.repo, "f.txt"));
    const keep = "s=os.stat('f.txt'); open('f.txt','w').write('Bs precious edit!\\n')";
    const back = "os.utime('f.txt', ns=(s.st_atime_ns, s.st_mtime_ns))";
    const { refused, post } = await runAsB(w, `python3 -c "import os; ${keep}; ${back}"`);
    expect(refused).toBeNull();
    expect(read(w)).toBe("Bs precious edit!\n");
    expect(read(w).length).toBe(before.length);
    expect(post).toMatch(/overwrote other live agents' uncommitted work: f\.txt/);
    expect((await cli(["recover", "f.txt", "--session", "A"], { cwd: w.repo })).code).toBe(0);
    expect(read(w)).toBe("A's precious edit\n");
  });

  it("keeps the newer bytes when recovering over them, and brings them back by version", async () => {
    const w = await world();
    await runAsB(w, "rm -f $(ls | grep f.txt)");
    expect(existsSync(join(w.repo, "f.txt"))).toBe(false);
    writeFileSync(join(w.repo, "f.txt"), "someone's newer edit\n");
    expect((await cli(["recover", "f.txt", "--session", "A"], { cwd: w.repo })).code).toBe(0);
    expect(read(w)).toBe("A's precious edit\n");
    const list = await cli(["recover", "f.txt", "--list", "--session", "A"], { cwd: w.repo });
    // A's bytes were kept the moment its Write left them (decision 0020).
    expect(list.stdout).toMatch(/version 1 .* left by your own tool call/);
    expect(list.stdout).toMatch(/version 2 .* kept before a recovery/);
    expect((await cli(["recover", "f.txt", "--version", "2", "--session", "A"], { cwd: w.repo })).code).toBe(
      0,
    );
    expect(read(w)).toBe("someone's newer edit\n");
  });

  it("copies an unchanged file once: a second command costs only a stat", async () => {
    const w = await world();
    await runAsB(w, "python3 -c 'pass'");
    await runAsB(w, "python3 -c 'pass'");
    const preserved = ledger(w.repo).events.filter((e) => e.kind === "work.preserved");
    expect(preserved).toHaveLength(1);
  });

  it("records no clobber for a file nobody else owns; the new file is kept as its writer's own version", async () => {
    const w = await world();
    await runAsB(w, "python3 -c \"open('mine.txt','w').write('x')\"");
    expect(ledger(w.repo).events.filter((e) => e.kind === "work.clobbered")).toEqual([]);
    expect((await cli(["recover", "--list", "--session", "B"], { cwd: w.repo })).stdout).toBe(
      "mine.txt  (1 version)\n",
    );
  });
});

describe("the safety net under concurrent commands", () => {
  it("copies A's file once when six peers' commands start at the same moment", async () => {
    const repo = initRepo(join(tempDir(), "repo"), { "f.txt": "committed\n" });
    const a = fakeAgent();
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt", "A's precious edit\n"), {
      cwd: repo,
      env: a,
    });
    writeFileSync(join(repo, "f.txt"), "A's precious edit\n");
    const { spawn } = await import("node:child_process");
    const { TANDEM_BIN } = await import("../helpers/cli.js");
    const runs = Array.from({ length: 6 }, (_, i) => {
      const payload = JSON.stringify(claudeBash(repo, `B${i}`, "python3 -c 'pass'"));
      return new Promise<number>((done) => {
        const child = spawn(process.execPath, [TANDEM_BIN, "hook", "claude-code", "pre-tool-use"], {
          cwd: repo,
          env: { ...process.env, XDG_CONFIG_HOME: "/nonexistent", ...fakeAgent() },
          stdio: ["pipe", "ignore", "ignore"],
        });
        child.stdin.end(payload);
        child.on("exit", (code) => done(code ?? -1));
      });
    });
    expect(await Promise.all(runs)).toEqual([0, 0, 0, 0, 0, 0]);
    const preserved = ledger(repo).events.filter((e) => e.kind === "work.preserved");
    expect(preserved).toHaveLength(1);
    expect(preserved[0]!.data).toMatchObject({ path: "f.txt", version: 1 });
  });
});
