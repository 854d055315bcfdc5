import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PRESENCE_FORMAT, type PresenceDoc, presenceText } from "../../src/core/remote/presence.js";
import { startBackgroundSync } from "../../src/remote/background.js";
import { writeDocCommit } from "../../src/remote/objects.js";
import type { SyncResult } from "../../src/remote/sync.js";
import { syncLockFile } from "../../src/remote/sync-lock.js";
import { TANDEM_BIN, tandem } from "../helpers/cli.js";
import { g, initRepo, tempDir } from "../helpers/repo.js";
import { bareWorld, setConfig, silentServer, stored } from "./remote-world.js";

const ENV = { TANDEM_SERVER: "0" };

function sync(repo: string, ...flags: string[]): SyncResult {
  const r = tandem(["sync", "--json", ...flags], { cwd: repo, env: ENV });
  return JSON.parse(r.stdout) as SyncResult;
}

function presenceOf(id: string, published: number): PresenceDoc {
  return {
    format: PRESENCE_FORMAT,
    checkout: { id, name: `elsewhere:/${id}` },
    published,
    base: null,
    branch: "main",
    upstream: null,
    sessions: [],
  };
}

/** Another checkout's document, pushed as it would have published it. */
function pushPresence(repo: string, doc: PresenceDoc): void {
  const commit = writeDocCommit(repo, "presence.json", presenceText(doc), "presence");
  g(repo, "push", "-q", "origin", `+${commit}:refs/tandem/presence/${doc.checkout.id}`);
}

const remoteRefs = (bare: string): string[] =>
  g(bare, "for-each-ref", "--format=%(refname)", "refs/tandem/").split("\n").filter(Boolean);

describe("a round that cannot reach the remote", () => {
  it("records a remote that never answers within the timeout, and says what to do", async () => {
    const silent = await silentServer();
    try {
      const repo = initRepo(join(tempDir(), "r"));
      g(repo, "remote", "add", "origin", `git://127.0.0.1:${silent.port}/x.git`);
      setConfig(repo, { remote: { timeoutSeconds: 1 } });
      // The call returning at all, with this message, shows the bound was applied (git alone waits on).
      const r = sync(repo);
      expect(r.ok).toBe(false);
      expect(r.error).toMatchObject({
        stage: "fetch",
        message: expect.stringContaining("timed out after 1s"),
      });
      expect(r.error!.fix).toContain("raise remote.timeoutSeconds");
      const state = stored(repo).sync!;
      expect(state.last_success).toBeNull();
      expect(state.last_error).toContain("timed out");
      const human = tandem(["sync"], { cwd: repo, env: ENV });
      expect(human.code).toBe(1);
      expect(human.stdout).toMatch(/failed with origin \(fetch\).*\nFix: origin did not answer within 1s/);
    } finally {
      silent.close();
    }
  });

  it("starts the background round without waiting for it, once per interval, never two at once", async () => {
    const silent = await silentServer();
    try {
      const repo = initRepo(join(tempDir(), "r"));
      g(repo, "remote", "add", "origin", `git://127.0.0.1:${silent.port}/x.git`);
      // Long enough that the round is surely still running when the test looks, even on a loaded machine.
      setConfig(repo, { remote: { timeoutSeconds: 6 } });
      tandem(["sync", "--json"], { cwd: repo, env: { ...ENV, TANDEM_REMOTE_CLAIMS: "warn" } }); // the store exists
      const stateDir = join(repo, ".git", "tandem");
      const base = {
        entry: TANDEM_BIN,
        root: repo,
        stateDir,
        env: { ...process.env, ...ENV },
        enabled: true,
        remoteName: null,
        intervalSeconds: 30,
      };
      const t0 = Date.now();
      expect(startBackgroundSync({ ...base, now: Date.now(), force: true })).toBe("started");
      // Returned while the round still waits out its 6 s (a round records itself when it ends): the
      // hook does not wait for it.
      expect(stored(repo).sync!.last_attempt).toBeLessThan(t0);
      expect(startBackgroundSync({ ...base, now: Date.now() })).toBe("recent");
      while (!existsSync(syncLockFile(stateDir))) await new Promise((ok) => setTimeout(ok, 20));
      // A burst of claim changes starts one round, not one each.
      expect(startBackgroundSync({ ...base, now: Date.now(), force: true })).toBe("recent");
      expect(startBackgroundSync({ ...base, now: Date.now() + 5000, force: true })).toBe("running");
      while (existsSync(syncLockFile(stateDir))) await new Promise((ok) => setTimeout(ok, 50));
      expect(stored(repo).sync!.last_error).toContain("timed out after 6s");
      expect(startBackgroundSync({ ...base, enabled: false, now: Date.now() + 99_000 })).toBe("disabled");
      // The next round need not wait out 6 s: only that it starts once the interval passed is asked.
      setConfig(repo, { remote: { timeoutSeconds: 1 } });
      expect(startBackgroundSync({ ...base, now: Date.now() + 31_000 })).toBe("started");
      // Let that round finish before the directory goes.
      while (stored(repo).sync!.last_attempt < t0 + 1000) await new Promise((ok) => setTimeout(ok, 50));
      while (existsSync(syncLockFile(stateDir))) await new Promise((ok) => setTimeout(ok, 50));
    } finally {
      silent.close();
    }
  });

  it("starts nothing without a remote, and `tandem sync` says how to add one", () => {
    const repo = initRepo(join(tempDir(), "r"));
    const stateDir = join(repo, ".git", "tandem");
    const started = startBackgroundSync({
      entry: TANDEM_BIN,
      root: repo,
      stateDir,
      env: process.env,
      enabled: true,
      remoteName: null,
      intervalSeconds: 30,
      now: Date.now(),
    });
    expect(started).toBe("no-remote");
    const r = sync(repo);
    expect(r.error).toMatchObject({ stage: "remote", fix: expect.stringContaining("git remote add") });
  });

  it("reports a remote that rejects custom refs, keeping what it fetched", () => {
    const world = bareWorld((base) => `file://${base}`);
    const hook = join(world.bare, "hooks", "pre-receive");
    writeFileSync(hook, "#!/bin/sh\necho 'custom refs are not allowed here' >&2\nexit 1\n");
    chmodSync(hook, 0o755);
    const a = world.clone("a");
    const r = sync(a);
    expect(r.ok).toBe(false);
    expect(r.error!.stage).toBe("publish");
    expect(r.error!.message).toContain("pre-receive hook declined");
    expect(r.error!.fix).toContain("refuses Tandem's refs");
    expect(remoteRefs(world.bare)).toEqual([]);
    expect(stored(a).sync!.last_error).toContain("custom refs are not allowed here");
  });
});

describe("tandem sync --prune", () => {
  it("deletes the refs of checkouts silent longer than remote.pruneDays, and nothing else", () => {
    const world = bareWorld((base) => `file://${base}`);
    const [a, c] = [world.clone("a"), world.clone("c")];
    const day = 86_400_000;
    pushPresence(c, presenceOf("00000000000000aa", Date.now() - 8 * day));
    pushPresence(c, presenceOf("00000000000000bb", Date.now() - 1 * day));
    const plain = sync(a);
    expect(plain.pruned).toEqual([]);
    expect(plain.seen.map((s) => s.id).sort()).toEqual(["00000000000000aa", "00000000000000bb"]);
    const pruned = sync(a, "--prune");
    expect(pruned.ok).toBe(true);
    expect(pruned.pruned).toEqual([{ id: "00000000000000aa", name: "elsewhere:/00000000000000aa" }]);
    const refs = remoteRefs(world.bare);
    expect(refs).not.toContain("refs/tandem/presence/00000000000000aa");
    expect(refs).toContain("refs/tandem/presence/00000000000000bb");
    // and a's own presence and its beat (decision 0062)
    expect(refs.filter((r) => !r.startsWith("refs/tandem/alive/"))).toHaveLength(2);
    expect(refs.filter((r) => r.startsWith("refs/tandem/alive/"))).toHaveLength(1);
    expect(stored(a).rows.map((r) => r.checkout)).not.toContain("00000000000000aa");
    expect(sync(a).seen.map((s) => s.id)).toEqual(["00000000000000bb"]);
  });
});
