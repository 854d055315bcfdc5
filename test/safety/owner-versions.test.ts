import { execFileSync } from "node:child_process";
import { chmodSync, linkSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { claudeBash, claudeWrite, denied, fakeAgent, ledger } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/** Issue 25 items 1 and 4: every version an owner leaves is kept, and its files are watched afterwards. */

interface World {
  repo: string;
  a: Record<string, string>;
  b: Record<string, string>;
}

async function world(): Promise<World> {
  const repo = initRepo(join(tempDir(), "repo"), { "f.txt": "committed\n", "README.md": "hi\n" });
  const w = { repo, a: fakeAgent(), b: fakeAgent() };
  await prompt(w, "B");
  return w;
}

const env = (w: World, who: "A" | "B") => ({ cwd: w.repo, env: who === "A" ? w.a : w.b });

async function prompt(w: World, who: "A" | "B"): Promise<string> {
  const payload = { session_id: who, cwd: w.repo, hook_event_name: "UserPromptSubmit", prompt: "go on" };
  return (await hook("claude-code", "user-prompt-submit", payload, env(w, who))).stdout;
}

/** A's Write of f.txt through the real pre- and post-tool hooks, the tool's write between them. */
async function writeAsA(w: World, text: string): Promise<void> {
  const payload = claudeWrite(w.repo, "A", "f.txt", text);
  expect(denied(await hook("claude-code", "pre-tool-use", payload, env(w, "A")))).toBeNull();
  writeFileSync(join(w.repo, "f.txt"), text);
  await hook("claude-code", "post-tool-use", { ...payload, hook_event_name: "PostToolUse" }, env(w, "A"));
}

/** B's shell command through the real hooks; the command runs between them. */
async function runAsB(w: World, command: string): Promise<string> {
  const pre = await hook("claude-code", "pre-tool-use", claudeBash(w.repo, "B", command), env(w, "B"));
  expect(denied(pre)).toBeNull();
  execFileSync("bash", ["-c", command], { cwd: w.repo, stdio: "ignore" });
  const post = await hook(
    "claude-code",
    "post-tool-use",
    claudeBash(w.repo, "B", command, "PostToolUse"),
    env(w, "B"),
  );
  return post.stdout;
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
async function expectToldAndRecovered(w: World, told: string, newest: string): Promise<void> {
  expect(told).toMatch(/f\.txt: changed by /);
  expect(told).toMatch(/tandem recover f\.txt/);
  expect(await prompt(w, "A")).not.toMatch(/overwrote your uncommitted work/);
  const rec = tandem(["recover", "f.txt", "--session", "A"], { cwd: w.repo });
  expect(rec.stderr).toBe("");
  expect(rec.code).toBe(0);
  expect(read(w)).toBe(newest);
}

describe("every version an owner leaves is kept, and watched afterwards", () => {
  it("a background job of B's destroys A's newer version: the next hook of B records it, A is told, recover returns the newer one", async () => {
    const w = await world();
    await writeAsA(w, "A's first edit\n");
    const go = join(tempDir(), "go");
    const job = `(until [ -e ${go} ]; do sleep 0.1; done; python3 -c "open('f.txt','w').write('background job')") &`;
    try {
      await runAsB(w, job);
      await writeAsA(w, "A's newer edit\n");
      const newest = events(w, "work.preserved").at(-1)!;
      expect(newest).toMatchObject({ path: "f.txt", reason: "owner" });
      expect(events(w, "work.clobbered")).toEqual([]);
    } finally {
      writeFileSync(go, "");
    }
    await until("the background job's write", () => read(w) === "background job");
    await prompt(w, "B");
    const newest = events(w, "work.preserved")
      .filter((p) => p.reason === "owner")
      .at(-1)!;
    expect(events(w, "work.clobbered")).toEqual([
      expect.objectContaining({ path: "f.txt", actor: null, via: "watch", version: newest.version }),
    ]);
    expect(events(w, "work.preserved").at(-1)).toMatchObject({ reason: "clobbered", bytes: 14 });
    const told = await prompt(w, "A");
    expect(told).toMatch(/a writer Tandem did not see run/);
    await expectToldAndRecovered(w, told, "A's newer edit\n");
  });

  it("a person overwrites A's file between hooks: A's own next hook records it and tells A", async () => {
    const w = await world();
    await writeAsA(w, "A's first edit\n");
    await writeAsA(w, "A's second edit\n");
    writeFileSync(join(w.repo, "f.txt"), "a person's edit\n");
    const told = await prompt(w, "A");
    expect(told).toMatch(/a writer Tandem did not see run/);
    await expectToldAndRecovered(w, told, "A's second edit\n");
    // The recovered bytes are what the watch compares to from now on: nothing more is recorded.
    await prompt(w, "B");
    expect(events(w, "work.clobbered")).toHaveLength(1);
  });

  it("an overwrite that keeps the size and sets the mtime back (cp -p, touch -r) is caught, kept and told", async () => {
    const w = await world();
    await writeAsA(w, "A's first edit\n");
    await writeAsA(w, "A's second edit\n");
    const file = join(w.repo, "f.txt");
    const before = statSync(file);
    // `cp -p` keeps the times to the nanosecond; `touch -r` sets them back on the overwritten file.
    const ref = join(tempDir(), "ref");
    execFileSync("cp", ["-p", file, ref]);
    writeFileSync(file, "X's second edit\n");
    execFileSync("touch", ["-r", ref, file]);
    const after = statSync(file);
    expect([after.size, after.mtimeMs, after.mode]).toEqual([before.size, before.mtimeMs, before.mode]);
    const told = await prompt(w, "A");
    expect(told).toMatch(/a writer Tandem did not see run/);
    expect(events(w, "work.preserved").at(-1)).toMatchObject({ reason: "clobbered", bytes: 16 });
    await expectToldAndRecovered(w, told, "A's second edit\n");
  });

  it("a change of the inode's times alone (chmod and back) is compared by content: nothing is told", async () => {
    const w = await world();
    await writeAsA(w, "A's edit\n");
    const file = join(w.repo, "f.txt");
    const mode = statSync(file).mode;
    chmodSync(file, 0o600);
    chmodSync(file, mode);
    expect(await prompt(w, "A")).not.toMatch(/changed by|did not see run/);
    await prompt(w, "B");
    expect(events(w, "work.clobbered")).toEqual([]);
  });

  it("refuses B's hard link to A's dirty file: making it is a write to that file (decision 0022)", async () => {
    const w = await world();
    await writeAsA(w, "A's edit\n");
    const pre = await hook("claude-code", "pre-tool-use", claudeBash(w.repo, "B", "ln f.txt h"), env(w, "B"));
    expect(denied(pre)).toMatch(/f\.txt: held by/);
    expect(read(w)).toBe("A's edit\n");
  });

  it("B's write through a hard link a person made is refused up front, naming A's file (decision 0045)", async () => {
    const w = await world();
    execFileSync("ln", ["f.txt", "h"], { cwd: w.repo });
    await writeAsA(w, "A's edit, shared by the link\n");
    const pre = await hook("claude-code", "pre-tool-use", claudeBash(w.repo, "B", "echo B > h"), env(w, "B"));
    expect(denied(pre)).toMatch(/the same file as f\.txt/);
    expect(read(w)).toBe("A's edit, shared by the link\n");
  });

  it("a person's write through a hard link is noticed at A's next hook: A is told and recovers", async () => {
    const w = await world();
    execFileSync("ln", ["f.txt", "h"], { cwd: w.repo });
    await writeAsA(w, "A's edit, shared by the link\n");
    // A person's terminal runs no hook: only the watch afterwards can see it.
    writeFileSync(join(w.repo, "h"), "person\n");
    expect(read(w)).toBe("person\n");
    await expectToldAndRecovered(w, await prompt(w, "A"), "A's edit, shared by the link\n");
    expect(events(w, "work.clobbered").filter((c) => c.path === "f.txt")).toHaveLength(1);
  });

  it("records nothing when A's file changes only through A's own tool calls, or is only touched", async () => {
    const w = await world();
    await writeAsA(w, "one\n");
    await writeAsA(w, "two\n");
    const f = join(w.repo, "f.txt");
    execFileSync("touch", ["-d", "2001-01-01", f]);
    await prompt(w, "B");
    await prompt(w, "A");
    expect(events(w, "work.clobbered")).toEqual([]);
    expect(events(w, "work.preserved").map((p) => p.reason)).toEqual(["owner", "owner", "owner"]);
    expect(events(w, "hook.error")).toEqual([]);
  });

  it("leaves a peer's file alone while the peer's own tool call is still open", async () => {
    const w = await world();
    await writeAsA(w, "one\n");
    const payload = claudeWrite(w.repo, "A", "f.txt", "two\n");
    expect(denied(await hook("claude-code", "pre-tool-use", payload, env(w, "A")))).toBeNull();
    writeFileSync(join(w.repo, "f.txt"), "two\n");
    await prompt(w, "B"); // A's Write has not reported back yet: its change is A's
    expect(events(w, "work.clobbered")).toEqual([]);
    await hook("claude-code", "post-tool-use", { ...payload, hook_event_name: "PostToolUse" }, env(w, "A"));
    expect(events(w, "work.preserved").at(-1)).toMatchObject({ reason: "owner", bytes: 4 });
    linkSync(join(w.repo, "f.txt"), join(w.repo, "g"));
    writeFileSync(join(w.repo, "g"), "three\n");
    await prompt(w, "B");
    expect(events(w, "work.clobbered")).toHaveLength(1);
  });
});
