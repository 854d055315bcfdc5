import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSeen } from "../../src/core/remote/kv-presence.js";
import type { SyncResult } from "../../src/remote/sync.js";
import { TANDEM_BIN } from "../helpers/cli.js";
import { claudeWrite, denied, fakeAgent } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";
import { type NatsServer, startNats } from "../helpers/nats.js";
import { patient } from "../helpers/patience.js";
import { bareWorld, setConfig } from "./remote-world.js";

/** Presence over a real nats-server (decision 0063): clones of one bare remote, engine "nats". */

let nats: NatsServer;
beforeAll(async () => {
  nats = await startNats();
});
afterAll(async () => {
  await nats?.stop();
});

const env = () => ({
  TANDEM_SERVER: "0",
  TANDEM_REMOTE: "1",
  TANDEM_REMOTE_ENGINE: "nats",
  TANDEM_NATS_URL: nats.url,
});

async function sync(repo: string): Promise<SyncResult> {
  const r = await cli(["sync", "--json"], { cwd: repo, env: env() });
  return JSON.parse(r.stdout) as SyncResult;
}

/** Session `native` in `repo` claims `file` through a real hook; the hook starts no round of its own. */
async function claim(
  repo: string,
  native: string,
  file: string,
  agent: { CLAUDE_PID: string },
): Promise<void> {
  const r = await hook("claude-code", "pre-tool-use", claudeWrite(repo, native, file), {
    cwd: repo,
    env: { ...agent, TANDEM_SERVER: "0", TANDEM_REMOTE: "0" },
  });
  expect(denied(r)).toBeNull();
}

/** What `tandem status` shows of other checkouts. */
async function elsewhere(repo: string): Promise<{ sessions: { paths: string[] }[] }> {
  return JSON.parse((await cli(["status", "--json"], { cwd: repo, env: env() })).stdout).overview.elsewhere;
}

const cacheOf = (repo: string) =>
  parseSeen(readFileSync(join(repo, ".git", "tandem", "nats-presence.json"), "utf8"))?.docs;

async function until<T>(what: string, deadlineMs: number, probe: () => Promise<T | null>): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const v = await probe();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`not within ${deadlineMs / 1000}s: ${what}`);
    await new Promise((ok) => setTimeout(ok, 200));
  }
}

describe("presence over NATS", () => {
  it("A's sessions and claims reach B and C; an unchanged A is not put again; B reads only what changed", async () => {
    const world = bareWorld((base) => `file://${base}`);
    const [a, b, c] = [world.clone("a"), world.clone("b"), world.clone("c")];
    // A long TTL: no refresh of an unchanged document moves the revisions under the test.
    for (const dir of [a, b, c])
      setConfig(dir, { remote: { nats: { bucket: "sync-test", presenceTtlSeconds: 600 } } });
    const agent = fakeAgent();
    await claim(a, "A1", "src/a.ts", agent);

    const first = await sync(a);
    expect(first.ok, JSON.stringify(first.error)).toBe(true);
    expect(first.published).toBe(true);
    expect((await sync(a)).published).toBe(false);

    for (const other of [b, c]) {
      const seen = await sync(other);
      expect(seen.ok, JSON.stringify(seen.error)).toBe(true);
      expect(seen.seen.map((s) => s.name)).toContain(seenName(a));
    }
    expect((await elsewhere(b)).sessions).toEqual([expect.objectContaining({ paths: ["src/a.ts"] })]);

    // B's next round reads back the puts of B and C's first rounds; after it, B has seen all.
    expect((await sync(b)).ok).toBe(true);
    const kept = cacheOf(b)!.revision;
    // Resumed after the revision it kept: with nothing new, it stays there.
    expect((await sync(b)).ok).toBe(true);
    expect(cacheOf(b)!.revision).toBe(kept);
    // A new claim in A is one change, and B's view has it after its next round.
    await claim(a, "A1", "src/c.ts", agent);
    expect((await sync(a)).published).toBe(true);
    expect((await sync(b)).ok).toBe(true);
    expect(cacheOf(b)!.revision).toBeGreaterThan(kept);
    expect((await elsewhere(b)).sessions[0]?.paths).toEqual(["src/a.ts", "src/c.ts"]);
  });

  it("a killed machine's sessions leave the other clones' view within 30 s", async () => {
    const world = bareWorld((base) => `file://${base}`);
    const [a, b] = [world.clone("a"), world.clone("b")];
    const ttlSeconds = 2;
    for (const dir of [a, b])
      setConfig(dir, { remote: { nats: { bucket: "kill-test", presenceTtlSeconds: ttlSeconds } } });
    await claim(a, "A1", "src/a.ts", fakeAgent());
    // What a hook starts: a background round, which stays on as A's presence keeper.
    const keeper = spawn(process.execPath, [TANDEM_BIN, "sync", "--background"], {
      cwd: a,
      env: { ...process.env, XDG_CONFIG_HOME: "/nonexistent/tandem-test-xdg", ...env() },
      stdio: "ignore",
    });
    const exited = new Promise((ok) => keeper.once("exit", ok));
    try {
      const seenA = async () => (await sync(b)).seen.find((s) => s.name === seenName(a)) ?? null;
      const first = await until("B sees A", patient(20_000), seenA);
      // Seen past its first TTL: the keeper refreshes A's alive mark.
      await until("A's mark refreshed past its first TTL", patient(30_000), async () => {
        const now = await seenA();
        return now && now.published > first.published + ttlSeconds * 1000 ? now : null;
      });
      keeper.kill("SIGKILL");
      await exited;
      // The bound of the issue: the key lapses after its TTL, and B's next round drops it.
      await until("A gone from B's view", 30_000, async () => ((await seenA()) === null ? true : null));
      expect((await elsewhere(b)).sessions).toEqual([]);
    } finally {
      keeper.kill("SIGKILL");
    }
  });
});

function seenName(repo: string): string {
  return JSON.parse(readFileSync(join(repo, ".git", "tandem", "checkout.json"), "utf8")).name as string;
}
