// The NATS half of the fleet bench (issue 41 item 4, decision 0063): N simulated clones (10, 50,
// 200), each its own connection to a real nats-server, run the engine's presence and lease code
// (bundled from src/ here). Reports one round's p50/p95 per clone, bytes per clone per round,
// git objects per steady round (none: nothing goes to git), distinct reservations that win,
// same-path winners, and how long a crashed clone stays in the others' views.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer, connect as tcp } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { percentile } from "./lib.mjs";

const ROOT = new URL("../", import.meta.url).pathname;

/** The engine's own modules, bundled once into a temp CommonJS file. */
async function engine(dir) {
  const out = await build({
    stdin: {
      contents: `
        export { natsReserve } from "./src/remote/nats-leases.ts";
        export { openNats } from "./src/remote/nats/link.ts";
        export { exchangePresence } from "./src/remote/nats/presence.ts";
        export { aliveKey, NOTHING_SEEN } from "./src/core/remote/kv-presence.ts";`,
      resolveDir: ROOT,
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    format: "cjs",
    write: false,
    logLevel: "warning",
  });
  const file = join(dir, "engine.cjs");
  writeFileSync(file, out.outputFiles[0].text);
  return createRequire(import.meta.url)(file);
}

async function freePort() {
  const s = createServer();
  await new Promise((ok) => s.listen(0, "127.0.0.1", ok));
  const port = s.address().port;
  await new Promise((ok) => s.close(ok));
  return port;
}

async function startNats(dir) {
  const port = await freePort();
  const bin = process.env.NATS_SERVER_BIN ?? "/usr/sbin/nats-server";
  const child = spawn(bin, ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", dir], { stdio: "ignore" });
  for (let i = 0; i < 200; i++) {
    const up = await new Promise((ok) => {
      const s = tcp({ host: "127.0.0.1", port }, () => ok(s.destroy() || true));
      s.on("error", () => ok(false));
    });
    if (up) return { url: `nats://127.0.0.1:${port}`, stop: () => child.kill("SIGTERM") };
    await new Promise((ok) => setTimeout(ok, 50));
  }
  child.kill("SIGKILL");
  throw new Error(`${bin} did not start`);
}

const doc = (id, now, claims) => ({
  format: 1,
  checkout: { id, name: `host-${id}:/work/repo` },
  published: now,
  base: "0".repeat(40),
  branch: `feature-${id}`,
  upstream: `origin/feature-${id}`,
  sessions: [
    {
      name: `agent-${id}-a`,
      client: "claude-code",
      task: "a task",
      branch: `feature-${id}`,
      lastSeen: now,
      claims,
      dirty: claims.slice(0, 1),
    },
    {
      name: `agent-${id}-b`,
      client: "codex",
      task: null,
      branch: `feature-${id}`,
      lastSeen: now,
      claims: [],
      dirty: [],
    },
  ],
});

/** One clone's round, as src/remote/nats-round.ts runs it less the store and the leases. */
async function round(E, c, ttlMs) {
  const t0 = performance.now();
  const before = c.link.stats();
  const ex = await E.exchangePresence(c.link, c.seen, doc(c.id, Date.now(), c.claims), {
    ttlMs,
    idleMs: 2000,
    now: Date.now,
  });
  c.seen = ex.seen;
  const after = c.link.stats();
  return {
    ms: performance.now() - t0,
    bytes: after.inBytes + after.outBytes - before.inBytes - before.outBytes,
  };
}

async function fleet(E, url, n, ttlMs) {
  const bucket = `fleet-${n}-${Date.now()}`;
  const settings = { url, creds: null, bucket, presenceTtlMs: ttlMs, timeoutMs: 20_000 };
  const clones = [];
  for (let i = 0; i < n; i++)
    clones.push({
      id: (0x10000000 + i).toString(16),
      claims: [`src/m${i}/a.ts`],
      seen: E.NOTHING_SEEN,
      link: await E.openNats(settings),
    });
  await Promise.all(clones.map((c) => round(E, c, ttlMs))); // first publish
  await Promise.all(clones.map((c) => round(E, c, ttlMs))); // everyone has read everyone
  const ms = [];
  const bytes = [];
  for (let r = 0; r < 5; r++) {
    // A tenth of the fleet changes a claim each round; the rest are steady.
    for (const c of clones.filter((_, i) => i % 10 === r % 10)) c.claims = [...c.claims, `src/r${r}.ts`];
    for (const x of await Promise.all(clones.map((c) => round(E, c, ttlMs)))) {
      ms.push(x.ms);
      bytes.push(x.bytes);
    }
  }
  // One clone's round while the others wait: what a machine of the fleet pays, without 200 clients
  // sharing this process's two cores.
  const solo = [];
  for (let r = 0; r < 10; r++) solo.push((await round(E, clones[r % n], ttlMs)).ms);
  const holder = (i) => ({ checkout: `h${i}`, name: `host-${i}` });
  const distinct = await Promise.all(
    clones.map((_, i) =>
      E.natsReserve(settings, {
        paths: [`src/d${i}.ts`],
        holder: holder(i),
        session: null,
        task: null,
        ttlMs: 3_600_000,
      }),
    ),
  );
  const same = await Promise.all(
    clones.map((_, i) =>
      E.natsReserve(settings, {
        paths: ["src/one.ts"],
        holder: holder(i),
        session: null,
        task: null,
        ttlMs: 3_600_000,
      }),
    ),
  );
  // A crash: clone 0 stops refreshing (its process is gone); the others keep their rounds each second.
  const gone = clones[0];
  await gone.link.close();
  const killedAt = Date.now();
  const others = clones.slice(1);
  let left = null;
  while (left === null && Date.now() - killedAt < 120_000) {
    await new Promise((ok) => setTimeout(ok, 1000));
    await Promise.all(others.map((c) => round(E, c, ttlMs)));
    if (others.every((c) => !(E.aliveKey(gone.id) in c.seen.alive.entries)))
      left = (Date.now() - killedAt) / 1000;
  }
  await Promise.all(others.map((c) => c.link.close()));
  return {
    n,
    p50: percentile(ms, 0.5),
    p95: percentile(ms, 0.95),
    solo: percentile(solo, 0.5),
    bytes: percentile(bytes, 0.5),
    distinctWon: distinct.filter((r) => r.ok && r.won.length === 1).length,
    sameWinners: same.filter((r) => r.ok && r.won.length === 1).length,
    crashGoneS: left,
  };
}

export async function fleetNatsBench(sizes = [10, 50, 200], ttlSeconds = 10) {
  const dir = mkdtempSync(join(tmpdir(), "tandem-fleet-nats-"));
  const server = await startNats(join(dir, "js"));
  try {
    const E = await engine(dir);
    const rows = [];
    for (const n of sizes) rows.push(await fleet(E, server.url, n, ttlSeconds * 1000));
    const lines = [
      `## Fleet over NATS (issue 41, decision 0063)`,
      "",
      `Each clone is its own connection to one local nats-server 2.9 with JetStream, all in one Node process on this machine; presence TTL ${ttlSeconds} s; 5 steady rounds in which a tenth of the clones change a claim, all clones' rounds at once.`,
      "",
      "| clones | round p50 ms, all at once | round p95 ms, all at once | one clone's round alone, p50 ms | bytes per clone per round (median) | git objects per steady round | distinct reservations won | same-path winners | crashed clone gone from every view after |",
      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...rows.map(
        (r) =>
          `| ${r.n} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.solo.toFixed(1)} | ${r.bytes} | 0 | ${r.distinctWon} of ${r.n} | ${r.sameWinners} | ${r.crashGoneS === null ? "not within 120 s" : `${r.crashGoneS.toFixed(1)} s`} |`,
      ),
    ];
    return `${lines.join("\n")}\n`;
  } finally {
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(await fleetNatsBench());
