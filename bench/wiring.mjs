// The wiring check every hook makes (docs/decisions/0024), in process: bundles src/wiring/heal.ts,
// wires a repository with every client and the git hooks, and times the check with nothing
// changed (a read of the record and a stat per file) against one `node -e 0`.
// Run: node bench/wiring.mjs
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, utimesSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { median, timeOnce } from "./lib.mjs";

const here = fileURLToPath(new URL("..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "tandem-bench-wiring-"));
// Beside the benches, so the bundle resolves better-sqlite3 from the project's node_modules.
const out = join(here, "bench", `.wiring-heal-${process.pid}.cjs`);
await build({
  entryPoints: [join(here, "src/wiring/heal.ts")],
  bundle: true,
  platform: "node",
  format: "cjs",
  outfile: out,
  external: ["better-sqlite3"],
  mainFields: ["module", "main"],
  logLevel: "error",
});
const require = createRequire(join(here, "package.json"));
const { healWiring } = require(out);

const repo = join(work, "repo");
const git = (...a) => spawnSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...a], { cwd: repo });
spawnSync("mkdir", ["-p", repo]);
git("init", "-q", "-b", "main");
git("commit", "-q", "--allow-empty", "-m", "i");
const bin = join(here, "dist/tandem.cjs");
const launcher = `${process.execPath} ${bin}`;
spawnSync(process.execPath, [bin, "init", "--command", launcher], { cwd: repo, stdio: "ignore" });

const Database = require("better-sqlite3");
const db = new Database(join(repo, ".git/tandem/state.db"));
const files = db.prepare("SELECT count(*) AS n FROM wiring_files").get().n;
const stateDir = join(repo, ".git/tandem");
const opts = { via: "hook", foundBy: () => null };
const time = (n, f) => {
  const s = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f();
  return Number(process.hrtime.bigint() - s) / 1e3 / n;
};
const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
const quiet = [];
const touched = [];
const node = [];
for (let r = 0; r < rounds; r++) {
  quiet.push(time(500, () => healWiring(db, stateDir, opts)));
  touched.push(
    time(20, () => {
      const t = new Date(Date.now() + Math.random() * 1e6);
      utimesSync(join(repo, ".claude/settings.json"), t, t);
      healWiring(db, stateDir, opts);
    }),
  );
  node.push(timeOnce({ cmd: process.execPath, args: ["-e", "0"] }) * 1000);
}
const q = median(quiet);
console.log(`wiring files recorded: ${files}`);
console.log(
  `check, nothing changed: ${q.toFixed(1)} µs (${((q / median(node)) * 100).toFixed(2)}% of node -e 0 at ${(median(node) / 1000).toFixed(1)} ms)`,
);
console.log(`check after a touch (hash, same bytes): ${median(touched).toFixed(1)} µs`);
db.close();
rmSync(work, { recursive: true, force: true });
rmSync(out, { force: true });
