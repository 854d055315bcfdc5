/**
 * Issue 25 §5: the blob store deleted from a plain terminal (no hook runs there, so nothing refuses
 * it). `tandem doctor` must name the versions whose copies are gone, and `tandem recover` must say
 * so in plain words with what to do, never a raw ENOENT.
 */
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { claudeBash, claudeWrite, denied, fakeAgent, hook } from "../helpers/hooks.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/** A holds f.txt with an uncommitted edit; B's python write clobbers it, so the net kept version 1. */
function clobbered(): string {
  const repo = initRepo(join(tempDir(), "repo"), { "f.txt": "committed\n" });
  const a = fakeAgent();
  const b = fakeAgent();
  const write = claudeWrite(repo, "A", "f.txt", "A's precious edit\n");
  expect(denied(hook("claude-code", "pre-tool-use", write, { cwd: repo, env: a }))).toBeNull();
  writeFileSync(join(repo, "f.txt"), "A's precious edit\n");
  hook("claude-code", "post-tool-use", { ...write, hook_event_name: "PostToolUse" }, { cwd: repo, env: a });
  const command = `python3 -c "open('f.txt','w').write('B was here')"`;
  expect(
    denied(hook("claude-code", "pre-tool-use", claudeBash(repo, "B", command), { cwd: repo, env: b })),
  ).toBeNull();
  execFileSync("bash", ["-c", command], { cwd: repo });
  hook("claude-code", "post-tool-use", claudeBash(repo, "B", command, "PostToolUse"), { cwd: repo, env: b });
  return repo;
}

describe("a blob store deleted outside Tandem", () => {
  it("is reported by doctor and explained by recover", () => {
    const repo = clobbered();
    const healthy = tandem(["doctor"], { cwd: repo });
    expect(healthy.stdout).not.toMatch(/copies are missing/);

    // The person's own terminal: no hook, nothing refuses it.
    execFileSync("rm", ["-rf", ".git/tandem/blobs"], { cwd: repo });
    expect(existsSync(join(repo, ".git", "tandem", "blobs"))).toBe(false);

    const doctor = tandem(["doctor"], { cwd: repo });
    // Every copy is gone: A's own kept versions and what replaced them alike.
    expect(doctor.stdout).toMatch(/(\d+) of \1 stored copies are missing/);
    expect(doctor.stdout).toMatch(/f\.txt version 1 \(kept for agent-\w+\)/);
    expect(doctor.code).not.toBe(0);

    const list = tandem(["recover", "f.txt", "--list", "--session", "A"], { cwd: repo });
    expect(list.stdout).toMatch(/version 1 .*its copy is missing from Tandem's store/);

    const rec = tandem(["recover", "f.txt", "--session", "A"], { cwd: repo });
    expect(rec.code).not.toBe(0);
    expect(rec.stderr).not.toMatch(/ENOENT/);
    expect(rec.stderr).toMatch(/Tandem's copy of version 1 is missing/);
    expect(rec.stderr).toMatch(/What to do: .*tandem doctor/);
  });
});
