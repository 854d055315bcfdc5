// The git engine of the fleet bench (bench/fleet.mjs): clones of one file:// bare remote, each
// running the built `tandem` as a person or an agent would. Rounds run with remote.intervalSeconds
// 1 (a beat each round) and remote.presenceTtlMinutes 1 (the crash bound, compressed).
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cloneOf, countBytes, git, remoteFixture } from "./remote-fixtures.mjs";

const CONFIG = { remote: { intervalSeconds: 1, presenceTtlMinutes: 1 } };

function objectsOf(repo, fsck) {
  const counts = Object.fromEntries(
    git(repo, "count-objects", "-v")
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split(": ")),
  );
  const unreachable = fsck
    ? git(repo, "fsck", "--unreachable", "--no-reflogs", "--no-progress")
        .split("\n")
        .filter((l) => l.startsWith("unreachable")).length
    : 0;
  return { all: Number(counts.count) + Number(counts["in-pack"]), unreachable };
}

export function gitEngine(bin) {
  const run = (fleet, i, args, extra = {}) =>
    spawnSync(process.execPath, [bin, ...args], {
      cwd: fleet.clones[i],
      env: { ...fleet.env, TANDEM_SERVER: "0", TANDEM_REMOTE: "1", ...extra },
      encoding: "utf8",
    });
  return {
    name: "git",
    setup(n) {
      const fx = remoteFixture();
      const clones = Array.from({ length: n }, (_, i) => {
        const repo = cloneOf(fx, `c${i}`);
        writeFileSync(join(repo, ".git", "info", "exclude"), ".tandem/\n");
        mkdirSync(join(repo, ".tandem"));
        writeFileSync(join(repo, ".tandem", "config.jsonc"), JSON.stringify(CONFIG));
        return repo;
      });
      return { fx, env: fx.env, clones, sleepers: [] };
    },
    round(fleet, i) {
      const r = run(fleet, i, ["sync", "--json"]);
      if (r.status !== 0) throw new Error(`tandem sync in ${fleet.clones[i]}: ${r.stderr}${r.stdout}`);
    },
    bytes(fleet, i) {
      const b = countBytes(fleet.clones[i], () => this.round(fleet, i));
      return b.fetchSent + b.fetchReceived + b.pushSent + b.pushReceived;
    },
    objects(fleet) {
      const all = [fleet.fx.bare, ...fleet.clones].map((r, k) => objectsOf(r, k < 4));
      return all.reduce((a, b) => ({ all: a.all + b.all, unreachable: a.unreachable + b.unreachable }));
    },
    reserve(fleet, i, paths) {
      return new Promise((resolve) => {
        const child = spawn(process.execPath, [bin, "reserve", ...paths, "--json"], {
          cwd: fleet.clones[i],
          env: { ...fleet.env, TANDEM_SERVER: "0" },
        });
        let out = "";
        child.stdout.on("data", (b) => (out += b));
        child.on("close", (code) => {
          let parsed = {};
          try {
            parsed = JSON.parse(out);
          } catch {}
          resolve({ code, ...parsed });
        });
      });
    },
    startSession(fleet, i) {
      const agent = spawn("sleep", ["600"], { stdio: "ignore" });
      fleet.sleepers.push(agent);
      const repo = fleet.clones[i];
      const payload = {
        session_id: "fleet-crash",
        transcript_path: "/tmp/fleet-crash.jsonl",
        cwd: repo,
        hook_event_name: "PreToolUse",
        tool_name: "Write",
        tool_input: { file_path: join(repo, "src", "crash.ts"), content: "x\n" },
        tool_use_id: "toolu_fleet",
      };
      const r = spawnSync(process.execPath, [bin, "hook", "claude-code", "pre-tool-use"], {
        cwd: repo,
        env: { ...fleet.env, TANDEM_SERVER: "0", TANDEM_REMOTE: "0", CLAUDE_PID: String(agent.pid) },
        input: JSON.stringify(payload),
        encoding: "utf8",
      });
      if (r.status !== 0) throw new Error(`hook in ${repo}: ${r.stderr}`);
    },
    sees(fleet, observer, i) {
      const r = run(fleet, observer, ["status"]);
      return r.stdout.includes(`:${fleet.clones[i]}`);
    },
    crashMs() {
      return CONFIG.remote.presenceTtlMinutes * 60_000;
    },
    teardown(fleet) {
      for (const s of fleet.sleepers) s.kill();
      rmSync(fleet.fx.work, { recursive: true, force: true });
    },
  };
}
