// The fleet bench (issue 41 §4, `BENCH_ONLY=fleet`): N clones of one remote, each syncing as a
// checkout of its own, measured per engine. An engine is a plain object (the git one is in
// bench/fleet-git.mjs; another, such as NATS, plugs in beside it with the same methods):
//
//   name                         what the table calls it
//   setup(n) → fleet             n checkouts sharing one coordination store; fleet.clones: their dirs
//   round(fleet, i) → void       one sync round of checkout i (a process, timed by the caller)
//   bytes(fleet, i) → number     bytes on the wire both ways for one round of checkout i
//   objects(fleet) → {all, unreachable} | null   objects in the store (null: not a git store)
//   reserve(fleet, i, paths) → Promise<{code, reserved, lost}>   `tandem reserve --json` as a process
//   startSession(fleet, i) → void     a live agent session in checkout i, seen by the others
//   sees(fleet, observer, i) → bool   whether checkout `observer` shows checkout i's sessions
//   crashMs(fleet) → number      the TTL: a crashed machine stays visible at most this plus one round
//   teardown(fleet) → void
//
// BENCH_FLEET=10,50,200 picks the sizes (default 10,50); BENCH_FLEET_ROUNDS the steady rounds per
// size (default 3). A size above 50 skips the crash measure (it waits the TTL in real time).
import { percentile } from "./lib.mjs";

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Runs `jobs` async functions at most `width` at a time; results in order. */
async function pooled(jobs, width) {
  const out = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const k = next++;
      out[k] = await jobs[k]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
  return out;
}

function timed(run) {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** One engine at one size: every figure of the table's row. */
async function measure(engine, n, rounds) {
  const fleet = engine.setup(n);
  try {
    for (let i = 0; i < n; i++) engine.round(fleet, i); // first publication
    for (let i = 0; i < n; i++) engine.round(fleet, i); // everyone has seen everyone
    const before = engine.objects(fleet);
    const ms = [];
    for (let r = 0; r < rounds; r++) {
      sleep(1100); // a beat is due once half an interval (1 s here) has passed
      for (let i = 0; i < n; i++) ms.push(timed(() => engine.round(fleet, i)));
    }
    const after = engine.objects(fleet);
    const sampled = Math.min(n, 3);
    let bytes = 0;
    for (let i = 0; i < sampled; i++) bytes += engine.bytes(fleet, i);

    // Before the reservations: a lease of checkout 0 would name it in the views for hours.
    const crash = n <= 50 ? crashVisibility(engine, fleet) : null;
    const distinct = await pooled(
      fleet.clones.map((_, i) => () => engine.reserve(fleet, i, [`src/fleet/f${i}.ts`])),
      Math.min(n, 50),
    );
    const same = await pooled(
      fleet.clones.map((_, i) => () => engine.reserve(fleet, i, ["src/fleet/same.ts"])),
      Math.min(n, 50),
    );
    return {
      n,
      p50: percentile(ms, 0.5),
      p95: percentile(ms, 0.95),
      bytes: bytes / sampled,
      added: before && after ? (after.all - before.all) / rounds : null,
      unreachable: before && after ? after.unreachable - before.unreachable : null,
      distinctWon: distinct.filter((o) => o.code === 0 && o.reserved?.length === 1).length,
      sameWon: same.filter((o) => o.code === 0).length,
      failed: [...distinct, ...same].filter((o) => o.code !== 0 && o.code !== 1).length,
      crash,
    };
  } finally {
    engine.teardown(fleet);
  }
}

/**
 * Checkout 0 starts a session and syncs, then stops syncing (a crash); checkout 1 keeps its rounds
 * going and is asked each second whether it still shows checkout 0's session.
 */
function crashVisibility(engine, fleet) {
  engine.startSession(fleet, 0);
  engine.round(fleet, 0);
  const crashed = Date.now();
  engine.round(fleet, 1);
  if (!engine.sees(fleet, 1, 0)) return { ms: 0, bound: engine.crashMs(fleet), seenAtAll: false };
  const limit = engine.crashMs(fleet) * 2;
  while (Date.now() - crashed < limit) {
    sleep(1000);
    engine.round(fleet, 1);
    if (!engine.sees(fleet, 1, 0))
      return { ms: Date.now() - crashed, bound: engine.crashMs(fleet), seenAtAll: true };
  }
  return { ms: null, bound: engine.crashMs(fleet), seenAtAll: true };
}

const kb = (b) => `${(b / 1024).toFixed(1)} KB`;

export async function fleetBench(engines) {
  const sizes = (process.env.BENCH_FLEET ?? "10,50").split(",").map(Number);
  const rounds = Number(process.env.BENCH_FLEET_ROUNDS ?? 3);
  const lines = [
    "## Fleet: N clones of one remote (issue 41)",
    "",
    `Each clone syncs as a checkout of its own, ${rounds} steady rounds after two warm-up rounds; bytes are one`,
    "round's protocol bytes both ways, averaged over 3 clones; objects are counted in the remote and every",
    "clone (`git count-objects -v`), unreachable ones by `git fsck --unreachable` on the remote and 3 clones.",
    "Reservations run as processes, up to 50 at once. Crash: a clone with a live session stops syncing;",
    "another, syncing every second, is asked after each of its rounds whether it still shows it; the",
    "bound is the TTL (compressed to 60 s here) plus one round of the observer.",
    "",
    "| engine | clones | sync p50 | sync p95 | bytes / clone / round | objects added / round | unreachable added | distinct reservations won | same-path winners | crashed visible (TTL) |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const engine of engines) {
    for (const n of sizes) {
      const r = await measure(engine, n, rounds);
      const crash = r.crash
        ? `${r.crash.ms === null ? "still visible" : `${(r.crash.ms / 1000).toFixed(0)} s`} (${(r.crash.bound / 1000).toFixed(0)} s)${r.crash.seenAtAll ? "" : ", never seen"}`
        : "—";
      lines.push(
        `| ${engine.name} | ${n} | ${r.p50.toFixed(0)} ms | ${r.p95.toFixed(0)} ms | ${kb(r.bytes)} | ${r.added ?? "—"} | ${r.unreachable ?? "—"} | ${r.distinctWon} of ${n} | ${r.sameWon} | ${crash} |`,
      );
      if (r.failed > 0)
        lines.push(`|  | ${r.failed} reservation(s) failed outright (neither won nor lost) |`);
      process.stderr.write(`fleet: ${engine.name} ${n} done\n`);
    }
  }
  return `${lines.join("\n")}\n`;
}
