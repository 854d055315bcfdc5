import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { overlaps } from "../../src/core/remote/leases.js";
import { allLeases } from "../../src/remote/nats/kv.js";
import type { NatsSettings } from "../../src/remote/nats/link.js";
import { openNats } from "../../src/remote/nats/link.js";
import { dropExpired, type NatsLeaseResult, natsRelease, natsReserve } from "../../src/remote/nats-leases.js";
import { tandem } from "../helpers/cli.js";
import { type NatsServer, startNats } from "../helpers/nats.js";
import { g } from "../helpers/repo.js";
import { bareWorld, setConfig } from "./remote-world.js";

/** Leases over a real nats-server (decision 0063): each "machine" is its own connection and checkout. */

let nats: NatsServer;
beforeAll(async () => {
  nats = await startNats();
});
afterAll(async () => {
  await nats?.stop();
});

let buckets = 0;
const settings = (): NatsSettings => ({
  url: nats.url,
  creds: null,
  bucket: `leases-test-${++buckets}`,
  presenceTtlMs: 30_000,
  timeoutMs: 10_000,
});

const machine = (i: number) => ({ checkout: `c${String(i).padStart(4, "0")}`, name: `host-${i}:/repo` });
const reserveAs = (s: NatsSettings, i: number, paths: string[]) =>
  natsReserve(s, { paths, holder: machine(i), session: null, task: `task ${i}`, ttlMs: 3_600_000 });

function ok(r: NatsLeaseResult): Extract<NatsLeaseResult, { ok: true }> {
  if (!r.ok) throw new Error(r.message);
  return r;
}

describe("leases over NATS", () => {
  it("50 machines reserving 50 different paths at once all win", async () => {
    const s = settings();
    const results = (
      await Promise.all(Array.from({ length: 50 }, (_, i) => reserveAs(s, i, [`src/f${i}.ts`])))
    ).map(ok);
    results.forEach((r, i) => {
      expect(r.won).toEqual([`src/f${i}.ts`]);
      expect(r.lost).toEqual([]);
      // No racer on its path: the first write took it.
      expect(r.tries).toBe(1);
    });
    const last = await natsReserve(s, {
      paths: ["README.md"],
      holder: machine(99),
      session: null,
      task: null,
      ttlMs: 60_000,
    });
    expect(JSON.parse(ok(last).now.text).leases).toHaveLength(51);
  });

  it("50 machines racing for one path give exactly one winner; every loser is told who", async () => {
    const s = settings();
    const results = (
      await Promise.all(Array.from({ length: 50 }, (_, i) => reserveAs(s, i, ["src/x.ts"])))
    ).map(ok);
    const winners = results.flatMap((r, i) => (r.won.length > 0 ? [i] : []));
    expect(winners).toHaveLength(1);
    const winner = machine(winners[0]!);
    for (const [i, r] of results.entries()) {
      if (i === winners[0]) continue;
      expect(r.won).toEqual([]);
      expect(r.lost).toEqual([
        { path: "src/x.ts", by: expect.objectContaining({ checkout: winner.checkout }) },
      ]);
    }
  });

  it("a directory and a file inside it reserved at once by different machines: one stands", async () => {
    const s = settings();
    const results = (
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => reserveAs(s, i, [i % 2 === 0 ? "src" : "src/a.ts"])),
      )
    ).map(ok);
    const stand = results.flatMap((r, i) => r.won.map((p) => ({ p, i })));
    expect(stand).toHaveLength(1);
    const doc = JSON.parse(ok(await reserveAs(s, 100, ["other"])).now.text) as {
      leases: { path: string; checkout: string }[];
    };
    const held = doc.leases.filter((l) => overlaps(l.path, "src"));
    expect(held).toEqual([
      expect.objectContaining({ path: stand[0]!.p, checkout: machine(stand[0]!.i).checkout }),
    ]);
  });

  it("a holder extends its own lease, releases it, and then another machine takes it", async () => {
    const s = settings();
    expect(ok(await reserveAs(s, 1, ["a.ts"])).won).toEqual(["a.ts"]);
    expect(ok(await reserveAs(s, 1, ["a.ts"])).won).toEqual(["a.ts"]);
    expect(ok(await reserveAs(s, 2, ["a.ts"])).lost).toHaveLength(1);
    expect(ok(await natsRelease(s, machine(2), ["a.ts"])).won).toEqual([]);
    expect(ok(await natsRelease(s, machine(1), ["a.ts"])).won).toEqual(["a.ts"]);
    expect(ok(await reserveAs(s, 2, ["a.ts"])).won).toEqual(["a.ts"]);
  });

  it("a round's clean-up deletes expired lease keys only", async () => {
    const s = settings();
    ok(await reserveAs(s, 1, ["short.ts"]));
    ok(
      await natsReserve(s, {
        paths: ["long.ts"],
        holder: machine(2),
        session: null,
        task: null,
        ttlMs: 86_400_000,
      }),
    );
    const link = await openNats(s);
    try {
      // Two hours on, past the first lease's hour and its skew margin.
      const later = Date.now() + 2 * 3_600_000;
      const kept = await dropExpired(link, await allLeases(link.leases), later);
      expect(kept.map((k) => k.lease.path)).toEqual(["long.ts"]);
      expect((await allLeases(link.leases)).map((k) => k.lease.path)).toEqual(["long.ts"]);
    } finally {
      await link.close();
    }
  });

  it("an unreachable server is a message with what to do, nothing reserved", async () => {
    const r = await reserveAs({ ...settings(), url: "nats://127.0.0.1:1", timeoutMs: 2000 }, 1, ["a.ts"]);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(
      /cannot connect to nats:\/\/127\.0\.0\.1:1.*nothing was reserved.*doctor tries it/,
    );
  });
});

describe("tandem reserve and claims with remote.engine nats", () => {
  it("reserves through NATS without a Git push, and claims lists the lease; a second clone loses it", () => {
    const world = bareWorld((base) => `file://${base}`);
    const [a, b] = [world.clone("a"), world.clone("b")];
    const env = {
      TANDEM_SERVER: "0",
      TANDEM_REMOTE: "1",
      TANDEM_REMOTE_ENGINE: "nats",
      TANDEM_NATS_URL: nats.url,
    };
    for (const dir of [a, b]) setConfig(dir, { remote: { nats: { bucket: "cli-test" } } });
    const won = tandem(["reserve", "src/p.ts", "--json"], { cwd: a, env });
    expect(won.code, won.stderr).toBe(0);
    expect(JSON.parse(won.stdout)).toEqual({ remote: "nats", reserved: ["src/p.ts"], lost: [] });
    const lost = tandem(["reserve", "src/p.ts", "--json"], { cwd: b, env });
    expect(lost.code).toBe(1);
    expect(JSON.parse(lost.stdout).lost[0].holder.checkoutName).toMatch(new RegExp(`:${a}$`));
    // A round over NATS stores the leases where status, claims and the board read them.
    const round = tandem(["sync", "--json"], { cwd: a, env });
    expect(JSON.parse(round.stdout)).toMatchObject({ ok: true, remote: nats.url });
    const claims = JSON.parse(tandem(["claims", "--json"], { cwd: a, env }).stdout) as {
      path: string;
      mine: boolean;
    }[];
    expect(claims).toEqual([expect.objectContaining({ path: "src/p.ts", mine: true })]);
    // Nothing of it went to the Git remote.
    expect(g(a, "ls-remote", "origin", "refs/tandem/*").trim()).toBe("");
    const released = tandem(["reserve", "--release", "src/p.ts", "--json"], { cwd: a, env });
    expect(JSON.parse(released.stdout).released).toEqual(["src/p.ts"]);
  });
});
