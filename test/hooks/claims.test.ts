import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import {
  claudeBash,
  claudeWrite,
  codexPatch,
  codexShell,
  denied,
  ledger,
  hook as spawnHook,
} from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { g, initRepo, tempDir } from "../helpers/repo.js";

const patch = (...files: string[]) =>
  `*** Begin Patch\n${files.map((f) => `*** Add File: ${f}\n+hello`).join("\n")}\n*** End Patch\n`;

describe("write claims at pre-tool-use", () => {
  it("claims a file for the first writer and refuses a second session, naming the holder", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    expect(
      denied(await hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), { cwd: repo })),
    ).toBeNull();
    const b = await hook("claude-code", "pre-tool-use", claudeWrite(repo, "B", "f.txt"), { cwd: repo });
    expect(b.code).toBe(0);
    expect(denied(b)).toMatch(
      /f\.txt: held by agent-\w+ \(claude-code, no task declared, last seen \d+s ago\)/,
    );
    expect(ledger(repo).claims).toEqual([{ path: "f.txt", holder: "A" }]);
    expect(ledger(repo).events.map((e) => e.kind)).toContain("claim.denied");
  });

  it('gives Codex a refusal without a final period: Codex adds its own before "Command:"', async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), { cwd: repo });
    const r = await hook("codex", "pre-tool-use", codexPatch(repo, "C", patch("f.txt")), { cwd: repo });
    const reason = denied(r)!;
    expect(reason).toMatch(/Do not work around this by editing the file another\s+way$/);
    // What the Codex model then reads (docs/clients.md §2.3):
    expect(`Command blocked by PreToolUse hook: ${reason}. Command: x`).not.toContain("..");
  });

  it("names the held file repository-relative in the Write refusal, as in the Bash one", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "src/f.txt"), { cwd: repo });
    const write = denied(
      await hook("claude-code", "pre-tool-use", claudeWrite(repo, "B", "src/f.txt"), { cwd: repo }),
    );
    const bash = denied(
      await hook("claude-code", "pre-tool-use", claudeBash(repo, "B", "echo x > src/f.txt"), { cwd: repo }),
    );
    expect(write).toMatch(/^- src\/f\.txt: held by/m);
    expect(write).not.toContain(repo);
    expect(bash).toMatch(/^- src\/f\.txt: held by/m);
  });

  it("refuses a Codex apply_patch touching a held file and two free files whole, leaving no claim behind", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), { cwd: repo });
    const c = await hook(
      "codex",
      "pre-tool-use",
      codexPatch(repo, "C", patch("free1.txt", "f.txt", "free2.txt")),
      {
        cwd: repo,
      },
    );
    expect(denied(c)).toMatch(/f\.txt: held by/);
    expect(ledger(repo).claims).toEqual([{ path: "f.txt", holder: "A" }]);
  });

  it("claims every file of a 500-file patch in one call", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    const files = Array.from({ length: 500 }, (_, i) => `dir ${i % 7}/file-${i}.txt`);
    expect(
      denied(await hook("codex", "pre-tool-use", codexPatch(repo, "C", patch(...files)), { cwd: repo })),
    ).toBeNull();
    expect(ledger(repo).claims).toHaveLength(500);
  });

  it("claims the target of a 200 KB Write from the full input", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    const big = claudeWrite(repo, "A", "big.txt", "y".repeat(200 * 1024));
    expect(denied(await hook("claude-code", "pre-tool-use", big, { cwd: repo }))).toBeNull();
    const requested = ledger(repo).events.find((e) => e.kind === "tool.requested")!.data as {
      inputBytes: number;
      targets: string[];
    };
    expect(requested.inputBytes).toBeGreaterThan(200 * 1024);
    expect(requested.targets).toEqual([join(repo, "big.txt")]);
    expect(ledger(repo).claims).toEqual([{ path: "big.txt", holder: "A" }]);
  });

  it("refuses a Codex shell redirect into a held file", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), { cwd: repo });
    expect(
      denied(await hook("codex", "pre-tool-use", codexShell(repo, "C", "echo hi > f.txt"), { cwd: repo })),
    ).toMatch(/held by/);
    expect(
      denied(
        await hook("codex", "pre-tool-use", codexShell(repo, "C", "echo hi > other.txt"), { cwd: repo }),
      ),
    ).toBeNull();
  });

  it("refuses a file inside a directory another session claimed by creating it", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await hook("claude-code", "pre-tool-use", claudeBash(repo, "A", "mkdir -p build/out"), { cwd: repo });
    expect(
      denied(
        await hook("claude-code", "pre-tool-use", claudeWrite(repo, "B", "build/out/x.txt"), { cwd: repo }),
      ),
    ).toMatch(/it holds build\/out/);
  });

  it("keeps the same relative path in two worktrees apart", async () => {
    const base = tempDir();
    const repo = initRepo(join(base, "repo"));
    const wt = join(base, "wt");
    g(repo, "worktree", "add", "-q", "-b", "side", wt);
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), { cwd: repo });
    expect(
      denied(await hook("claude-code", "pre-tool-use", claudeWrite(wt, "B", "f.txt"), { cwd: wt })),
    ).toBeNull();
  });

  it("takes over the claim of a session whose agent is gone and that was not seen within the freshness window", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    await hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), { cwd: repo });
    // A's agent process exits: point its recorded pid at one that no longer exists.
    const db = openDb(join(repo, ".git", "tandem"));
    raw(db).prepare("UPDATE sessions SET agent_pid = 2147480000 WHERE native_id = 'A'").run();
    db.close();
    const fresh = await hook("claude-code", "pre-tool-use", claudeWrite(repo, "B", "f.txt"), { cwd: repo });
    expect(denied(fresh)).not.toBeNull();
    // B's next call is 61 s later by the request's clock, past a 60 s window that no slow machine
    // crosses by itself.
    const b = await hook("claude-code", "pre-tool-use", claudeWrite(repo, "B", "f.txt"), {
      cwd: repo,
      env: { TANDEM_FRESHNESS: "60" },
      now: Date.now() + 61_000,
    });
    expect(denied(b)).toBeNull();
    expect(ledger(repo).claims).toEqual([{ path: "f.txt", holder: "B" }]);
    const takeover = ledger(repo).events.find((e) => e.kind === "claim.released");
    expect(takeover?.data).toMatchObject({ path: "f.txt", reason: "stale_takeover" });
  });

  it("takes the suite build's clock from TANDEM_TEST_NOW through the real binary", () => {
    const repo = initRepo(join(tempDir(), "repo"));
    spawnHook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), { cwd: repo });
    const db = openDb(join(repo, ".git", "tandem"));
    raw(db).prepare("UPDATE sessions SET agent_pid = 2147480000 WHERE native_id = 'A'").run();
    db.close();
    // The binary has no request to carry `now`: the variable is its clock (docs/product.md §10).
    const b = spawnHook("claude-code", "pre-tool-use", claudeWrite(repo, "B", "f.txt"), {
      cwd: repo,
      env: { TANDEM_FRESHNESS: "60", TANDEM_TEST_NOW: String(Date.now() + 61_000) },
    });
    expect(denied(b)).toBeNull();
    expect(ledger(repo).claims).toEqual([{ path: "f.txt", holder: "B" }]);
  });

  it("allows and does not claim a scratch file outside every root, but refuses it when finalization is required", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    const scratch = join(tempDir(), "scratch.txt");
    const payload = { ...claudeWrite(repo, "A", "x"), tool_input: { file_path: scratch, content: "x" } };
    expect(denied(await hook("claude-code", "pre-tool-use", payload, { cwd: repo }))).toBeNull();
    expect(ledger(repo).claims).toEqual([]);
    const strict = await hook("claude-code", "pre-tool-use", payload, {
      cwd: repo,
      env: { TANDEM_REQUIRE_GIT_FINALIZATION: "1" },
    });
    expect(denied(strict)).toMatch(/outside the authorized roots/);
  });

  it("ignores a Cursor payload sent to the Claude Code hook", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    const r = await hook(
      "claude-code",
      "pre-tool-use",
      { ...claudeWrite(repo, "A", "f.txt"), cursor_version: "2.0" },
      { cwd: repo },
    );
    expect(r).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(existsSync(join(repo, ".git", "tandem", "state.db"))).toBe(false);
  });
});
