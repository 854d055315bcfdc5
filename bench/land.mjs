// `tandem land` against the git commands it replaces (issue 28), alternating per round:
//   node bench/land.mjs [rounds]     (needs `npm run build`)
// - nothing to rebase: a commit, then `git push` vs `tandem land`;
// - the remote moved: another clone pushes first, then `git pull --rebase && git push` in a clean
//   clone vs `tandem land` in a clone with a peer's dirty file (which pull --rebase would refuse).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "./lib.mjs";

const rounds = Number(process.argv[2] ?? 10);
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
console.log(`| case (${rounds} rounds) | median ms | ratio |\n|---|---:|---:|`);
console.log(row("git push (nothing to rebase)", s.push, s.push));
console.log(row("tandem land (nothing to rebase)", s.landPush, s.push));
console.log(row("git pull --rebase && git push (remote moved, clean clone)", s.pullPush, s.pullPush));
console.log(row("tandem land (remote moved, peer's dirty file kept)", s.landRebase, s.pullPush));
rmSync(base, { recursive: true, force: true });
