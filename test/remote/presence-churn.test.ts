/**
 * Issue 41 §2: presence without garbage (decision 0062). Steady rounds publish nothing and move
 * only a beat ref, so neither the remote nor any clone gains an object; a machine that stops
 * syncing (a crash) leaves every other clone's view once its last beat is older than the TTL.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../src/config/schema.js";
import { liveRemoteSessions } from "../../src/core/remote/presence.js";
import { type SyncResult, syncRound } from "../../src/remote/sync.js";
import { openDb } from "../../src/store/db.js";
import { remotePresenceDocs } from "../../src/store/remote/rows.js";
import { claudeWrite, denied, fakeAgent, hook } from "../helpers/hooks.js";
import { g } from "../helpers/repo.js";
import { bareWorld } from "./remote-world.js";

const INTERVAL_MS = DEFAULT_CONFIG.remoteIntervalSeconds * 1000;

/** One in-process round of `repo` at the simulated time `at`. */
function round(repo: string, at: number, config = DEFAULT_CONFIG): SyncResult {
  const stateDir = join(repo, ".git", "tandem");
  const db = openDb(stateDir);
  try {
    const r = syncRound(db, {
      root: repo,
      top: repo,
      stateDir,
      config,
      now: () => at,
      doctor: "tandem doctor",
    });
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    return r;
  } finally {
    db.close();
  }
}

/** Objects in a repository (loose and packed) and how many of them nothing reaches. */
function objects(repo: string): { all: number; unreachable: number } {
  const counts = Object.fromEntries(
    g(repo, "count-objects", "-v")
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split(": ") as [string, string]),
  );
  const unreachable = g(repo, "fsck", "--unreachable", "--no-reflogs", "--no-progress")
    .split("\n")
    .filter((l) => l.startsWith("unreachable")).length;
  return { all: Number(counts.count) + Number(counts["in-pack"]), unreachable };
}

describe("presence over many steady rounds", () => {
  it("adds no object to the remote or any clone: nothing is re-published, only beats move", () => {
    const world = bareWorld((base) => `file://${base}`);
    const clones = ["a", "b", "c"].map((n) => world.clone(n));
    let at = Date.now();
    for (let warm = 0; warm < 2; warm++, at += INTERVAL_MS) for (const c of clones) round(c, at);
    const before = [world.bare, ...clones].map(objects);

    // Five minutes at the default 30 s interval: nothing in a round depends on the clock but the
    // beat's date, so steady rounds after the warm-up all look alike (thirty ran ~1,200 more git processes).
    const rounds = 10;
    for (let i = 0; i < rounds; i++, at += INTERVAL_MS) {
      for (const c of clones) expect(round(c, at).published).toBe(false);
    }

    expect([world.bare, ...clones].map(objects)).toEqual(before);
    // Each checkout's beat is one ref, dated by its last round; others read it into its document.
    const beats = g(world.bare, "for-each-ref", "--format=%(refname)", "refs/tandem/alive/").split("\n");
    expect(beats.filter(Boolean)).toHaveLength(3);
    const db = openDb(join(clones[0]!, ".git", "tandem"));
    try {
      const last = at - INTERVAL_MS;
      for (const d of remotePresenceDocs(db)) expect(d.alive).toBeGreaterThanOrEqual(last - INTERVAL_MS);
    } finally {
      db.close();
    }
  });
});

describe("a machine that stops syncing (crashed)", () => {
  it("leaves another clone's view once its last beat is older than the TTL, and not before", () => {
    const world = bareWorld((base) => `file://${base}`);
    const [a, b] = [world.clone("a"), world.clone("b")];
    const agent = fakeAgent();
    const r = hook("claude-code", "pre-tool-use", claudeWrite(a, "A1", "src/a.ts"), {
      cwd: a,
      env: { ...agent, TANDEM_SERVER: "0", TANDEM_REMOTE: "0" },
    });
    expect(denied(r)).toBeNull();
    const config = { ...DEFAULT_CONFIG, remotePresenceTtlMinutes: 2 };
    const ttl = config.remotePresenceTtlMinutes * 60_000;
    const fresh = { sessionMs: config.freshnessSeconds * 1000, documentMs: ttl };
    const t0 = Date.now();
    round(a, t0, config);
    round(a, t0 + INTERVAL_MS, config); // A's last beat: it crashes after this round
    const lastBeat = t0 + INTERVAL_MS;

    const seen: [number, boolean][] = [];
    for (let t = lastBeat; t <= lastBeat + ttl + 2 * INTERVAL_MS; t += INTERVAL_MS) {
      round(b, t, config);
      const db = openDb(join(b, ".git", "tandem"));
      try {
        const live = liveRemoteSessions(remotePresenceDocs(db), null, t, fresh);
        seen.push([t - lastBeat, live.some((s) => s.doc.checkout.name.endsWith(`:${a}`))]);
      } finally {
        db.close();
      }
    }
    // Visible while the beat is within the TTL; gone at the first round of B after that.
    expect(seen).toEqual(seen.map(([age]) => [age, age <= ttl]));
    expect(seen.some(([, v]) => v) && seen.some(([, v]) => !v)).toBe(true);
  });
});
