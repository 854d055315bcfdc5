import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { claudeBash, claudeWrite, denied, fakeAgent, hook, ledger } from "../helpers/hooks.js";
import { patient } from "../helpers/patience.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/**
 * Issue 37.1: the tool call is the owner's version. A writer that never stops (a watcher, a
 * formatter in watch mode) rewrites the owner's file within milliseconds of every change: the
 * owner's post-tool keeps what its call meant, records the other bytes as another writer's, and
 * tells the owner.
 */

const loops: ChildProcess[] = [];
afterEach(async () => {
  for (const l of loops.splice(0)) {
    if (l.exitCode !== null || l.signalCode !== null) continue;
    const gone = new Promise((r) => l.once("exit", r));
    l.kill();
    await gone;
  }
});

async function until(what: string, probe: () => boolean): Promise<void> {
  const end = Date.now() + patient(30_000);
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const events = (repo: string, kind: string) =>
  ledger(repo)
    .events.filter((e) => e.kind === kind)
    .map((e) => e.data as Record<string, unknown>);

describe("the tool call is the owner's version", () => {
  it("a background loop rewrites A's file after each Write: A's post-tool keeps what A wrote, records the loop, tells A", async () => {
    const repo = initRepo(join(tempDir(), "repo"), { "README.md": "hi\n" });
    const a = fakeAgent();
    const opts = { cwd: repo, env: a };
    hook(
      "claude-code",
      "user-prompt-submit",
      { session_id: "A", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "go" },
      opts,
    );
    const file = join(repo, "f.txt");
    const meant = "A's version\n";
    const payload = claudeWrite(repo, "A", "f.txt", meant);
    expect(denied(hook("claude-code", "pre-tool-use", payload, opts))).toBeNull();
    writeFileSync(file, meant);
    // The loop: whenever the file is not its own, it writes its own, a few milliseconds later.
    const loop = spawn(
      "bash",
      ["-c", `while :; do [ "$(cat f.txt)" = loop ] || printf loop > f.txt; sleep 0.005; done`],
      { cwd: repo, stdio: "ignore" },
    );
    loops.push(loop);
    await until("the loop's rewrite", () => existsSync(file) && readFileSync(file, "utf8") === "loop");

    const post = hook("claude-code", "post-tool-use", { ...payload, hook_event_name: "PostToolUse" }, opts);
    expect(post.code).toBe(0);
    expect(post.stdout).toMatch(/f\.txt: changed by a writer Tandem did not see run/);
    expect(post.stdout).toMatch(/tandem recover f\.txt/);

    const kept = events(repo, "work.preserved").filter((p) => p.path === "f.txt");
    const mine = kept.find((p) => p.reason === "owner");
    expect(mine).toMatchObject({ bytes: Buffer.byteLength(meant) });
    expect(kept.find((p) => p.reason === "clobbered")).toMatchObject({ bytes: 4 });
    expect(events(repo, "work.clobbered")).toEqual([
      expect.objectContaining({ path: "f.txt", actor: null, via: "watch", version: mine!.version }),
    ]);

    // The loop stopped, recover gives A's version back.
    const gone = new Promise((r) => loop.once("exit", r));
    loop.kill();
    await gone;
    const rec = tandem(["recover", "f.txt", "--session", "A"], { cwd: repo });
    expect(rec.stderr).toBe("");
    expect(rec.code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(meant);
  });

  it("an Edit left as meant is the owner's version and nothing is told", () => {
    const repo = initRepo(join(tempDir(), "repo"), { "README.md": "hi\n" });
    const a = fakeAgent();
    const opts = { cwd: repo, env: a };
    const file = join(repo, "f.txt");
    const write = claudeWrite(repo, "A", "f.txt", "one two\n");
    expect(denied(hook("claude-code", "pre-tool-use", write, opts))).toBeNull();
    writeFileSync(file, "one two\n");
    hook("claude-code", "post-tool-use", { ...write, hook_event_name: "PostToolUse" }, opts);
    const edit = {
      ...write,
      tool_name: "Edit",
      tool_input: { file_path: file, old_string: "two", new_string: "three" },
    };
    expect(denied(hook("claude-code", "pre-tool-use", edit, opts))).toBeNull();
    writeFileSync(file, "one three\n");
    const post = hook("claude-code", "post-tool-use", { ...edit, hook_event_name: "PostToolUse" }, opts);
    expect(post.stdout).not.toMatch(/did not see run/);
    expect(events(repo, "work.clobbered")).toEqual([]);
    expect(events(repo, "work.preserved").map((p) => [p.reason, p.bytes])).toEqual([
      ["owner", 8],
      ["owner", 10],
    ]);
  });

  it("an Edit a formatter changed after it: the edit applied to A's last version is kept, the rest told", () => {
    const repo = initRepo(join(tempDir(), "repo"), { "README.md": "hi\n" });
    const a = fakeAgent();
    const opts = { cwd: repo, env: a };
    const file = join(repo, "f.txt");
    const write = claudeWrite(repo, "A", "f.txt", "one two\n");
    expect(denied(hook("claude-code", "pre-tool-use", write, opts))).toBeNull();
    writeFileSync(file, "one two\n");
    hook("claude-code", "post-tool-use", { ...write, hook_event_name: "PostToolUse" }, opts);
    const edit = {
      ...write,
      tool_name: "Edit",
      tool_input: { file_path: file, old_string: "two", new_string: "three" },
    };
    expect(denied(hook("claude-code", "pre-tool-use", edit, opts))).toBeNull();
    writeFileSync(file, "ONE THREE\n");
    const post = hook("claude-code", "post-tool-use", { ...edit, hook_event_name: "PostToolUse" }, opts);
    expect(post.stdout).toMatch(/f\.txt: changed by a writer Tandem did not see run/);
    const rec = tandem(["recover", "f.txt", "--session", "A"], { cwd: repo });
    expect(rec.code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe("one three\n");
  });

  it("a change after A's shell command ended, before A's next hook, is another writer's, never A's", async () => {
    const repo = initRepo(join(tempDir(), "repo"), { "README.md": "hi\n" });
    const a = fakeAgent();
    const opts = { cwd: repo, env: a };
    const prompt = () =>
      hook(
        "claude-code",
        "user-prompt-submit",
        { session_id: "A", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "go" },
        opts,
      ).stdout;
    prompt();
    const go = join(tempDir(), "go");
    // The command leaves its own bytes, and a job that outlives it writes later.
    const command = `python3 -c "open('f.txt','w').write('mine')"; (until [ -e ${go} ]; do sleep 0.05; done; printf later > f.txt) >/dev/null 2>&1 &`;
    expect(denied(hook("claude-code", "pre-tool-use", claudeBash(repo, "A", command), opts))).toBeNull();
    execFileSync("bash", ["-c", command], { cwd: repo, stdio: "ignore" });
    expect(
      hook("claude-code", "post-tool-use", claudeBash(repo, "A", command, "PostToolUse"), opts).code,
    ).toBe(0);
    writeFileSync(go, "");
    const file = join(repo, "f.txt");
    await until("the job's write", () => readFileSync(file, "utf8") === "later");

    const told = prompt();
    expect(told).toMatch(/f\.txt: changed by a writer Tandem did not see run/);
    expect(events(repo, "work.clobbered")).toEqual([expect.objectContaining({ path: "f.txt", actor: null })]);
    const owner = events(repo, "work.preserved").filter((p) => p.reason === "owner");
    expect(owner.map((p) => p.bytes)).toEqual([4]);
    const rec = tandem(["recover", "f.txt", "--session", "A"], { cwd: repo });
    expect(rec.code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe("mine");
  });
});
