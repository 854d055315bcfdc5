import { execFileSync } from "node:child_process";
import { chmodSync, linkSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { claudeBash, claudeWrite, denied, fakeAgent, hook, ledger } from "../helpers/hooks.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/** Issue 25 items 1 and 4: every version an owner leaves is kept, and its files are watched afterwards. */

interface World {
  repo: string;
  a: Record<string, string>;
  b: Record<string, string>;
}

function world(): World {
  const repo = initRepo(join(tempDir(), "repo"), { "f.txt": "committed\n", "README.md": "hi\n" });
  const w = { repo, a: fakeAgent(), b: fakeAgent() };
  prompt(w, "B");
  return w;
}

const env = (w: World, who: "A" | "B") => ({ cwd: w.repo, env: who === "A" ? w.a : w.b });

function prompt(w: World, who: "A" | "B"): string {
  const payload = { session_id: who, cwd: w.repo, hook_event_name: "UserPromptSubmit", prompt: "go on" };
  return hook("claude-code", "user-prompt-submit", payload, env(w, who)).stdout;
}

/** A's Write of f.txt through the real pre- and post-tool hooks, the tool's write between them. */
function writeAsA(w: World, text: string): void {
  const payload = claudeWrite(w.repo, "A", "f.txt", text);
  expect(denied(hook("claude-code", "pre-tool-use", payload, env(w, "A")))).toBeNull();
  writeFileSync(join(w.repo, "f.txt"), text);
  hook("claude-code", "post-tool-use", { ...payload, hook_event_name: "PostToolUse" }, env(w, "A"));
}

/** B's shell command through the real hooks; the command runs between them. */
function runAsB(w: World, command: string): string {
  const pre = hook("claude-code", "pre-tool-use", claudeBash(w.repo, "B", command), env(w, "B"));
  expect(denied(pre)).toBeNull();
  execFileSync("bash", ["-c", command], { cwd: w.repo, stdio: "ignore" });
  return hook("claude-code", "post-tool-use", claudeBash(w.repo, "B", command, "PostToolUse"), env(w, "B"))
    .stdout;
}

const read = (w: World) => readFileSync(join(w.repo, "f.txt"), "utf8");

const events = (w: World, kind: string) =>
  ledger(w.repo)
    .events.filter((e) => e.kind === kind)
    .map((e) => e.data as Record<string, unknown>);

async function until(what: string, probe: () => boolean): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (probe()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A is told, and `tandem recover f.txt` returns A's newest bytes. */
function expectToldAndRecovered(w: World, told: string, newest: string): void {
  expect(told).toMatch(/f\.txt: changed by /);
  expect(told).toMatch(/tandem recover f\.txt/);
  expect(prompt(w, "A")).not.toMatch(/overwrote your uncommitted work/);
  const rec = tandem(["recover", "f.txt", "--session", "A"], { cwd: w.repo });
  expect(rec.stderr).toBe("");
  expect(rec.code).toBe(0);
  expect(read(w)).toBe(newest);
}

describe("every version an owner leaves is kept, and watched afterwards", () => {
  it("a background job of B's destroys A's newer version: the next hook of B records it, A is told, recover returns the newer one", async () => {
    const w = world();
    writeAsA(w, "A's first edit\n");
    const go = join(tempDir(), "go");
    const job = `(until [ -e ${go} ]; do sleep 0.1; done; python3 -c "open('f.txt','w').write('background job')") &`;
    try {
      runAsB(w, job);
      writeAsA(w, "A's newer edit\n");
      const newest = events(w, "work.preserved").at(-1)!;
      expect(newest).toMatchObject({ path: "f.txt", reason: "owner" });
      expect(events(w, "work.clobbered")).toEqual([]);
    } finally {
      writeFileSync(go, "");
    }
    await until("the background job's write", () => read(w) === "background job");
    prompt(w, "B");
    const newest = events(w, "work.preserved")
      .filter((p) => p.reason === "owner")
      .at(-1)!;
    expect(events(w, "work.clobbered")).toEqual([
      expect.objectContaining({ path: "f.txt", actor: null, via: "watch", version: newest.version }),
    ]);
    expect(events(w, "work.preserved").at(-1)).toMatchObject({ reason: "clobbered", bytes: 14 });
    const told = prompt(w, "A");
    expect(told).toMatch(/a writer Tandem did not see run/);
    expectToldAndRecovered(w, told, "A's newer edit\n");
  });

  it("a person overwrites A's file between hooks: A's own next hook records it and tells A", () => {
    const w = world();
    writeAsA(w, "A's first edit\n");
    writeAsA(w, "A's second edit\n");
    writeFileSync(join(w.repo, "f.txt"), "a person's edit\n");
    const told = prompt(w, "A");
    expect(told).toMatch(/a writer Tandem did not see run/);
    expectToldAndRecovered(w, told, "A's second edit\n");
    // The recovered bytes are what the watch compares to from now on: nothing more is recorded.
    prompt(w, "B");
    expect(events(w, "work.clobbered")).toHaveLength(1);
  });

  it("an overwrite that keeps the size and sets the mtime back (cp -p, touch -r) is caught, kept and told", () => {
    const w = world();
    writeAsA(w, "A's first edit\n");
    writeAsA(w, "A's second edit\n");
    const file = join(w.repo, "f.txt");
    const before = statSync(file);
    // `cp -p` keeps the times to the nanosecond; `touch -r` sets them back on the overwritten file.
    const ref = join(tempDir(), "ref");
    execFileSync("cp", ["-p", file, ref]);
    writeFileSync(file, "X's second edit\n");
    execFileSync("touch", ["-r", ref, file]);
    const after = statSync(file);
    expect([after.size, after.mtimeMs, after.mode]).toEqual([before.size, before.mtimeMs, before.mode]);
    const told = prompt(w, "A");
    expect(told).toMatch(/a writer Tandem did not see run/);
    expect(events(w, "work.preserved").at(-1)).toMatchObject({ reason: "clobbered", bytes: 16 });
    expectToldAndRecovered(w, told, "A's second edit\n");
  });

  it("a change of the inode's times alone (chmod and back) is compared by content: nothing is told", () => {
    const w = world();
    writeAsA(w, "A's edit\n");
    const file = join(w.repo, "f.txt");
    const mode = statSync(file).mode;
    chmodSync(file, 0o600);
    chmodSync(file, mode);
    expect(prompt(w, "A")).not.toMatch(/changed by|did not see run/);
    prompt(w, "B");
    expect(events(w, "work.clobbered")).toEqual([]);
  });

  it("refuses B's hard link to A's dirty file: making it is a write to that file (decision 0022)", () => {
    const w = world();
    writeAsA(w, "A's edit\n");
    const pre = hook("claude-code", "pre-tool-use", claudeBash(w.repo, "B", "ln f.txt h"), env(w, "B"));
    expect(denied(pre)).toMatch(/f\.txt: held by/);
    expect(read(w)).toBe("A's edit\n");
  });

  it("B's write through a hard link a person made is refused up front, naming A's file (decision 0045)", () => {
    const w = world();
    execFileSync("ln", ["f.txt", "h"], { cwd: w.repo });
    writeAsA(w, "A's edit, shared by the link\n");
    const pre = hook("claude-code", "pre-tool-use", claudeBash(w.repo, "B", "echo B > h"), env(w, "B"));
    expect(denied(pre)).toMatch(/the same file as f\.txt/);
    expect(read(w)).toBe("A's edit, shared by the link\n");
  });

  it("a person's write through a hard link is noticed at A's next hook: A is told and recovers", () => {
    const w = world();
    execFileSync("ln", ["f.txt", "h"], { cwd: w.repo });
    writeAsA(w, "A's edit, shared by the link\n");
    // A person's terminal runs no hook: only the watch afterwards can see it.
    writeFileSync(join(w.repo, "h"), "person\n");
    expect(read(w)).toBe("person\n");
    expectToldAndRecovered(w, prompt(w, "A"), "A's edit, shared by the link\n");
    expect(events(w, "work.clobbered").filter((c) => c.path === "f.txt")).toHaveLength(1);
  });

  it("records nothing when A's file changes only through A's own tool calls, or is only touched", () => {
    const w = world();
    writeAsA(w, "one\n");
    writeAsA(w, "two\n");
    const f = join(w.repo, "f.txt");
    execFileSync("touch", ["-d", "2001-01-01", f]);
    prompt(w, "B");
    prompt(w, "A");
    expect(events(w, "work.clobbered")).toEqual([]);
    expect(events(w, "work.preserved").map((p) => p.reason)).toEqual(["owner", "owner", "owner"]);
    expect(events(w, "hook.error")).toEqual([]);
  });

  it("leaves a peer's file alone while the peer's own tool call is still open", () => {
    const w = world();
    writeAsA(w, "one\n");
    const payload = claudeWrite(w.repo, "A", "f.txt", "two\n");
    expect(denied(hook("claude-code", "pre-tool-use", payload, env(w, "A")))).toBeNull();
    writeFileSync(join(w.repo, "f.txt"), "two\n");
    prompt(w, "B"); // A's Write has not reported back yet: its change is A's
    expect(events(w, "work.clobbered")).toEqual([]);
    hook("claude-code", "post-tool-use", { ...payload, hook_event_name: "PostToolUse" }, env(w, "A"));
    expect(events(w, "work.preserved").at(-1)).toMatchObject({ reason: "owner", bytes: 4 });
    linkSync(join(w.repo, "f.txt"), join(w.repo, "g"));
    writeFileSync(join(w.repo, "g"), "three\n");
    prompt(w, "B");
    expect(events(w, "work.clobbered")).toHaveLength(1);
  });
});
