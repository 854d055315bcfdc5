import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { claudeBash, denied, fakeAgent, ledger } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/** Issue 37.3: saved versions stay within the retention policy; `tandem gc` frees what it no longer needs. */

const MB = 1024 * 1024;

/** The apparent bytes of the blob store: what its files would hold written out. */
function blobBytes(repo: string): number {
  const dir = join(repo, ".git", "tandem", "blobs");
  return readdirSync(dir)
    .filter((n) => /^[0-9a-f]{64}$/.test(n))
    .reduce((n, f) => n + statSync(join(dir, f)).size, 0);
}

const bigVersions = (repo: string) =>
  ledger(repo)
    .events.filter((e) => e.kind === "work.preserved")
    .map((e) => e.data as { path: string; version: number; bytes: number })
    .filter((d) => d.path === "big.bin");

type Finding = { level: string; check: string; detail: string; fix?: string };
interface Doctor {
  findings: Finding[];
  checks: Finding[];
}

function retentionLine(repo: string) {
  const r = tandem(["doctor", "--json"], { cwd: repo });
  const d = JSON.parse(r.stdout) as Doctor;
  return [...d.findings, ...d.checks].find((f) => f.check === "retention");
}

describe("a bound on saved bytes", () => {
  it("twenty 50 MB versions of one file: doctor names the problem and gc ends under the bound", async () => {
    const repo = initRepo(join(tempDir(), "repo"), { "README.md": "hi\n" });
    const a = fakeAgent();
    await hook(
      "claude-code",
      "user-prompt-submit",
      { session_id: "A", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "go" },
      { cwd: repo, env: a },
    );
    for (let i = 1; i <= 20; i++) {
      // Sparse: 50 MB apparent, a distinct head, written in a moment.
      const command = `python3 -c "f=open('big.bin','wb'); f.write(b'v${i}'); f.truncate(${50 * MB})"`;
      const opts = { cwd: repo, env: a };
      expect(
        denied(await hook("claude-code", "pre-tool-use", claudeBash(repo, "A", command), opts)),
      ).toBeNull();
      execFileSync("bash", ["-c", command], { cwd: repo, stdio: "ignore" });
      const after = await hook(
        "claude-code",
        "post-tool-use",
        claudeBash(repo, "A", command, "PostToolUse"),
        opts,
      );
      expect(after.code).toBe(0);
    }
    expect(bigVersions(repo)).toHaveLength(20);
    expect(blobBytes(repo)).toBeGreaterThanOrEqual(1000 * MB);

    const before = retentionLine(repo);
    expect(before?.level).toBe("problem");
    expect(before?.detail).toMatch(/over retention\.sessionBytes/);
    expect(before?.fix).toMatch(/tandem gc/);

    const gc = tandem(["gc"], { cwd: repo });
    expect(gc.stderr).toBe("");
    expect(gc.code).toBe(0);
    expect(gc.stdout).toMatch(/18 saved version\(s\) beyond the retention\.\* bounds expired/);
    // The defaults: a session keeps at most 256 MB; a large file its latest two versions.
    expect(blobBytes(repo)).toBeLessThanOrEqual(256 * MB);
    expect(blobBytes(repo)).toBe(100 * MB);
    expect(retentionLine(repo)?.level).toBe("ok");
  });
});
