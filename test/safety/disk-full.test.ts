import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { claudeBash, claudeWrite, denied, fakeAgent, hook } from "../helpers/hooks.js";
import { initRepo } from "../helpers/repo.js";

/**
 * Issue 37.3: on a full disk (a small tmpfs; the suite runs as root) every refusal names the disk,
 * and the commands that only free space still pass: an `rm` of files no peer holds, `tandem gc`.
 */

// The mount outlives each test, so its directory is the file's, removed once it is unmounted
// (tempDir's would be removed after the first test, while the mount still holds it).
const base = realpathSync(mkdtempSync(join(tmpdir(), "tandem-disk-full-")));
const mnt = join(base, "small-disk");
mkdirSync(mnt);
const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=24m", "tmpfs", mnt]).status === 0;
afterAll(() => {
  if (mounted) spawnSync("umount", ["-l", mnt]);
  rmSync(base, { recursive: true, force: true });
});

// As root (CI, and this machine's sessions) a failed mount is a failure, never a skip; a person
// running the suite unprivileged skips it with this reason in the output.
const root = process.getuid?.() === 0;
it.runIf(root)("mounts the small disk the test needs (root can)", () => {
  expect(mounted, `mount -t tmpfs failed at ${mnt}`).toBe(true);
});

describe.skipIf(!mounted)("a full disk (needs root for the tmpfs)", () => {
  it("refuses a write naming the disk, lets rm and tandem gc through, and a peer's file stays refused", () => {
    const repo = initRepo(join(mnt, "repo"), { "README.md": "hi\n" });
    const a = { ...fakeAgent(), TANDEM_SERVER: "0" };
    const b = { ...fakeAgent(), TANDEM_SERVER: "0" };
    const as = (env: Record<string, string>) => ({ cwd: repo, env });
    for (const [id, env] of [
      ["A", a],
      ["B", b],
    ] as const) {
      const start = { session_id: id, cwd: repo, hook_event_name: "SessionStart", source: "startup" };
      expect(hook("claude-code", "session-start", start, as(env)).code).toBe(0);
    }
    // Session start put the store's reserve in place.
    expect(existsSync(join(repo, ".git", "tandem", "disk-reserve"))).toBe(true);
    // B holds b.txt.
    const bw = claudeWrite(repo, "B", "b.txt", "B's work\n");
    expect(denied(hook("claude-code", "pre-tool-use", bw, as(b)))).toBeNull();
    execFileSync("bash", ["-c", 'echo "B\'s work" > b.txt'], { cwd: repo });
    hook("claude-code", "post-tool-use", { ...bw, hook_event_name: "PostToolUse" }, as(b));

    // Something fills the disk.
    spawnSync("dd", ["if=/dev/zero", `of=${join(repo, "fill.bin")}`, "bs=1M"], { stdio: "ignore" });

    const write = denied(hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "x.txt"), as(a)));
    expect(write).toMatch(/because the disk is full/);
    expect(write).toMatch(/tandem gc/);
    const copy = denied(
      hook("claude-code", "pre-tool-use", claudeBash(repo, "A", "cp README.md y.txt"), as(a)),
    );
    expect(copy).toMatch(/because the disk is full/);

    // Freeing space is judged as ever: a peer's file stays refused, with the peer named.
    const peer = denied(hook("claude-code", "pre-tool-use", claudeBash(repo, "A", "rm b.txt"), as(a)));
    expect(peer).toMatch(/b\.txt/);
    expect(peer).not.toBeNull();

    expect(denied(hook("claude-code", "pre-tool-use", claudeBash(repo, "A", "tandem gc"), as(a)))).toBeNull();
    expect(
      denied(hook("claude-code", "pre-tool-use", claudeBash(repo, "A", "rm -f fill.bin"), as(a))),
    ).toBeNull();
    rmSync(join(repo, "fill.bin"));
    // With room again, writes pass.
    expect(denied(hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "x.txt"), as(a)))).toBeNull();
  });
});
