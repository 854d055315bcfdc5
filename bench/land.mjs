// `tandem land` against the git commands it replaces (issue 28), alternating per round:
//   node bench/land.mjs [rounds] [turns]     (needs `npm run build`; rounds 0 skips the latencies)
// - nothing to rebase: a commit, then `git push` vs `tandem land`;
// - the remote moved: another clone pushes first, then `git pull --rebase && git push` in a clean
//   clone vs `tandem land` in a clone with a peer's dirty file (which pull --rebase would refuse);
// - throughput: the simulation (2 checkouts × 4 agents × `turns`, every agent committing a
//   file each turn and all eight landing at once, each keeping its own file dirty) against the same
//   turns in 8 separate clones, each landed one after another with `git pull --rebase && git push`.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "./lib.mjs";

const rounds = Number(process.argv[2] ?? 10);
const turns = Number(process.argv[3] ?? 25);
const bin = join(process.cwd(), "dist", "tandem.cjs");
const base = mkdtempSync(join(tmpdir(), "tandem-bench-land-"));
const git = (cwd, ...args) =>
  execFileSync("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"] }).toString();
const env = { ...process.env, XDG_CONFIG_HOME: "/nonexistent" };

git(base, "init", "-q", "--bare", "-b", "main", "remote.git");
const clone = (name) => {
  git(base, "clone", "-q", join(base, "remote.git"), name);
  const dir = join(base, name);
  git(dir, "config", "user.name", name);
  git(dir, "config", "user.email", `${name}@bench.invalid`);
  return dir;
};
const seed = clone("seed");
writeFileSync(join(seed, "README.md"), "bench\n");
git(seed, "add", "README.md");
git(seed, "commit", "-q", "-m", "seed");
git(seed, "push", "-q", "origin", "main");
const [a, b, other] = ["a", "b", "other"].map(clone);
let n = 0;
const commit = (dir) => {
  const f = `f${n++}.txt`;
  writeFileSync(join(dir, f), `${n}\n`);
  git(dir, "add", f);
  git(dir, "commit", "-q", "-m", f);
};
const timed = (fn) => {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
};
/** Another clone publishes a commit: the remote moves under a and b. */
const moveRemote = () => {
  commit(other);
  git(other, "pull", "-q", "--rebase");
  git(other, "push", "-q", "origin", "main");
};
const land = (dir) => execFileSync(process.execPath, [bin, "land"], { cwd: dir, env, stdio: "ignore" });
// A peer's uncommitted edit in a's checkout: `git pull --rebase` would refuse to start.
writeFileSync(join(a, "README.md"), "a peer's unsaved edit\n");

const s = { push: [], landPush: [], pullPush: [], landRebase: [] };
for (let r = 0; r < rounds; r++) {
  for (const dir of [a, b]) git(dir, "pull", "-q", "--rebase", "--autostash");
  commit(b);
  s.push.push(timed(() => git(b, "push", "-q", "origin", "main")));
  commit(a);
  s.landPush.push(timed(() => land(a)));
  moveRemote();
  commit(b);
  s.pullPush.push(
    timed(() => {
      git(b, "pull", "-q", "--rebase");
      git(b, "push", "-q", "origin", "main");
    }),
  );
  moveRemote();
  commit(a);
  s.landRebase.push(timed(() => land(a)));
}
const row = (name, xs, base) =>
  `| ${name} | ${median(xs).toFixed(1)} | ${(median(xs) / median(base)).toFixed(2)}× |`;
if (rounds > 0) {
  console.log(`| case (${rounds} rounds) | median ms | ratio |\n|---|---:|---:|`);
  console.log(row("git push (nothing to rebase)", s.push, s.push));
  console.log(row("tandem land (nothing to rebase)", s.landPush, s.push));
  console.log(row("git pull --rebase && git push (remote moved, clean clone)", s.pullPush, s.pullPush));
  console.log(row("tandem land (remote moved, peer's dirty file kept)", s.landRebase, s.pullPush));
}

/** A fresh bare remote with a seed commit holding one tracked file per agent (kept dirty later). */
function world(name, agents) {
  const dir = join(base, name);
  git(base, "init", "-q", "--bare", "-b", "main", `${name}.git`);
  const remote = join(base, `${name}.git`);
  const seedDir = join(base, `${name}-seed`);
  git(base, "clone", "-q", remote, seedDir);
  git(seedDir, "config", "user.name", "seed");
  git(seedDir, "config", "user.email", "seed@bench.invalid");
  for (const a of agents) writeFileSync(join(seedDir, `wip-${a}.txt`), "committed\n");
  git(seedDir, "add", ".");
  git(seedDir, "commit", "-q", "-m", "seed");
  git(seedDir, "push", "-q", "origin", "main");
  const cloneOf = (n) => {
    git(base, "clone", "-q", remote, `${dir}-${n}`);
    git(`${dir}-${n}`, "config", "user.name", n);
    git(`${dir}-${n}`, "config", "user.email", `${n}@bench.invalid`);
    return `${dir}-${n}`;
  };
  return cloneOf;
}

function commitTurn(dir, agent, turn) {
  writeFileSync(join(dir, `wip-${agent}.txt`), `${agent} unsaved, turn ${turn}\n`);
  const f = `${agent}-t${turn}.txt`;
  writeFileSync(join(dir, f), `${agent} ${turn}\n`);
  git(dir, "add", "--", f);
  git(dir, "commit", "-q", "-m", `${agent} turn ${turn}`, "--", f);
}

const landAsync = (dir) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "land", "--json"], {
      cwd: dir,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("close", (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`tandem land exited ${code}: ${out}`)),
    );
  });

async function throughput(turns) {
  const agents = Array.from({ length: 8 }, (_, i) => `c${i >> 2}a${i % 4}`);
  // Tandem: two shared checkouts, four agents each, every agent landing at once after its commit.
  const shared = world("sim", agents);
  const checkouts = [shared("c0"), shared("c1")];
  const where = (i) => checkouts[i >> 2];
  let batched = 0;
  const t0 = process.hrtime.bigint();
  for (let turn = 0; turn < turns; turn++) {
    for (const [i, a] of agents.entries()) commitTurn(where(i), a, turn);
    const results = await Promise.all(agents.map((_, i) => landAsync(where(i))));
    batched += results.filter((r) => r.batch).length;
  }
  const landMs = Number(process.hrtime.bigint() - t0) / 1e6;
  // git: one clone per agent (the only safe way without Tandem), landed one after another.
  const own = world("seq", agents);
  const clones = agents.map((a) => own(a));
  const t1 = process.hrtime.bigint();
  for (let turn = 0; turn < turns; turn++)
    agents.forEach((a, i) => {
      commitTurn(clones[i], a, turn);
      git(clones[i], "pull", "-q", "--rebase", "--autostash");
      git(clones[i], "push", "-q", "origin", "main");
    });
  const gitMs = Number(process.hrtime.bigint() - t1) / 1e6;
  const commits = agents.length * turns;
  const rate = (ms) => (commits / (ms / 1000)).toFixed(2);
  console.log(`\n| ${commits} commits (8 agents × ${turns} turns) | wall s | commits/s |\n|---|---:|---:|`);
  console.log(
    `| tandem land, 2 shared checkouts, 8 landing at once | ${(landMs / 1000).toFixed(1)} | ${rate(landMs)} |`,
  );
  console.log(
    `| git pull --rebase && git push, 8 clones, one after another | ${(gitMs / 1000).toFixed(1)} | ${rate(gitMs)} |`,
  );
  console.log(`\n${batched} of ${commits} landings were answered as part of a batch.`);
}

if (turns > 0) await throughput(turns);
rmSync(base, { recursive: true, force: true });
