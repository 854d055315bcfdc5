// Fixtures for bench/remote.mjs: a file:// bare remote and clones of it, other checkouts' presence
// written straight into the remote as refs, byte counting on the wire, and git's own timings.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const IDENTITY = ["-c", "user.name=Bench", "-c", "user.email=bench@tandem.invalid"];

export const git = (cwd, ...args) =>
  execFileSync("git", [...IDENTITY, ...args], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** A bare remote with one commit on main, in a fresh temporary directory. */
export function remoteFixture() {
  const work = mkdtempSync(join(tmpdir(), "tandem-bench-remote-"));
  const bare = join(work, "remote.git");
  git(work, "init", "-q", "--bare", "-b", "main", bare);
  const seed = join(work, "seed");
  git(work, "clone", "-q", `file://${bare}`, seed);
  mkdirSync(join(seed, "src"));
  writeFileSync(join(seed, "src", "a.ts"), "export const a = 1;\n");
  git(seed, "add", "-A");
  git(seed, "commit", "-q", "-m", "seed");
  git(seed, "push", "-q", "origin", "main");
  const base = git(seed, "rev-parse", "HEAD").trim();
  return { work, bare, base, env: { ...process.env, XDG_CONFIG_HOME: join(work, "xdg") } };
}

/** A fresh clone of the remote: a checkout of its own. */
export function cloneOf(fx, name) {
  const repo = join(fx.work, name);
  git(fx.work, "clone", "-q", `file://${fx.bare}`, repo);
  return repo;
}

// A pool of paths the simulated sessions claim and dirty: 200 checkouts × 3 sessions share it, so
// some paths are claimed in several checkouts (what `tandem conflicts` reports).
const PATHS = Array.from({ length: 600 }, (_, i) => `src/mod${i % 40}/file${Math.floor(i / 40)}.ts`);

/** A presence document shaped like a real one: three live sessions, a few claims and dirty paths. */
export function presenceDoc(i, base, now) {
  const sessions = ["lark", "wren", "finch"].map((bird, s) => {
    const at = (k) => PATHS[(i * 7 + s * 131 + k * 17) % PATHS.length];
    return {
      name: `agent-${bird}-${i}`,
      client: s === 1 ? "codex" : "claude-code",
      task: `task ${i}.${s}: refactor the ${bird} module`,
      branch: i % 3 === 0 ? "main" : `feature/bench-${i}`,
      lastSeen: now - s * 1000,
      claims: [at(0), at(1), at(2), at(3)].sort(),
      dirty: [at(0), at(2)].sort(),
    };
  });
  return {
    format: 1,
    checkout: { id: `bench${String(i).padStart(4, "0")}`, name: `host-${i}:/work/clone-${i}` },
    published: now,
    base,
    branch: i % 3 === 0 ? "main" : `feature/bench-${i}`,
    upstream: "origin/main",
    sessions,
  };
}

/**
 * Writes `n` checkouts' presence into the bare remote in one `git fast-import` (a parentless commit
 * with presence.json per ref, force-updated as real checkouts do), dated `now`.
 */
export function writePresenceRefs(bare, n, base, now) {
  const parts = [];
  const data = (text) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  for (let i = 0; i < n; i++) {
    const doc = presenceDoc(i, base, now);
    const ref = `refs/tandem/presence/${doc.checkout.id}`;
    parts.push(
      `blob\nmark :${i + 1}\n${data(`${JSON.stringify(doc, null, 1)}\n`)}`,
      `reset ${ref}\ncommit ${ref}\ncommitter Tandem <tandem@localhost> ${Math.floor(now / 1000)} +0000\n`,
      `${data(`tandem presence of ${doc.checkout.name}`)}M 100644 :${i + 1} presence.json\n\n`,
    );
  }
  execFileSync("git", ["fast-import", "--quiet", "--force"], { cwd: bare, input: parts.join("") });
}

/** Deletes every presence ref in the bare remote. */
export function clearPresence(bare) {
  const refs = git(bare, "for-each-ref", "--format=%(refname)", "refs/tandem/presence/").split("\n");
  const input = refs
    .filter(Boolean)
    .map((r) => `delete ${r}\n`)
    .join("");
  execFileSync("git", ["update-ref", "--stdin"], { cwd: bare, input });
}

/**
 * Counts the bytes each way between `repo` and its remote while `run` runs: upload-pack and
 * receive-pack go through a `tee` on each side (remote.origin.uploadpack / receivepack), so every
 * byte of the protocol — ref advertisement, negotiation, pack — is counted.
 */
export function countBytes(repo, run) {
  const dir = mkdtempSync(join(tmpdir(), "tandem-bench-bytes-"));
  const wrap = (service) => {
    const file = join(dir, `${service}.sh`);
    writeFileSync(
      file,
      `#!/bin/sh\ntee -a '${dir}/${service}.sent' | git ${service} "$@" | tee -a '${dir}/${service}.received'\n`,
    );
    chmodSync(file, 0o755);
    return file;
  };
  git(repo, "config", "remote.origin.uploadpack", wrap("upload-pack"));
  git(repo, "config", "remote.origin.receivepack", wrap("receive-pack"));
  try {
    run();
  } finally {
    git(repo, "config", "--unset", "remote.origin.uploadpack");
    git(repo, "config", "--unset", "remote.origin.receivepack");
  }
  const size = (f) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f)).length : 0);
  const bytes = {
    fetchSent: size("upload-pack.sent"),
    fetchReceived: size("upload-pack.received"),
    pushSent: size("receive-pack.sent"),
    pushReceived: size("receive-pack.received"),
  };
  rmSync(dir, { recursive: true, force: true });
  return bytes;
}

/**
 * Runs `run` with GIT_TRACE2_EVENT and returns the wall time of every git process it started
 * itself (not git's own children), grouped by subcommand, in ms: where a round's time goes.
 */
export function gitTimes(work, env, run) {
  const file = join(work, `trace2-${Date.now()}.json`);
  run({ ...env, GIT_TRACE2_EVENT: file });
  const bySid = new Map();
  for (const line of readFileSync(file, "utf8").split("\n").filter(Boolean)) {
    const e = JSON.parse(line);
    if (e.sid.includes("/")) continue; // a child of a git process, inside its parent's time
    if (e.event === "start") bySid.set(e.sid, { cmd: e.argv[1] ?? "git", ms: 0 });
    if (e.event === "exit" && bySid.has(e.sid)) bySid.get(e.sid).ms = e.t_abs * 1000;
  }
  rmSync(file, { force: true });
  const out = new Map();
  for (const { cmd, ms } of bySid.values()) {
    const prev = out.get(cmd) ?? { count: 0, ms: 0 };
    out.set(cmd, { count: prev.count + 1, ms: prev.ms + ms });
  }
  return out;
}
