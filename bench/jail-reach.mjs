// Issue 36: how long a claim change takes to reach every live jail. N clients run whole under
// `tandem run codex` (decision 0056: a keeper in each jail binds what the plan lists; the run's
// Node parent rewrites the plan when the store changes). Each client is a python watcher polling
// `access(W_OK)` (EROFS once the file is bound read-only in its jail). Each round a peer's real
// Claude Code pre-tool hook claims one more untracked file; the round's time runs from the hook's
// exit (the claim is in the store) to the last jail seeing the file read-only.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { median, percentile } from "./lib.mjs";

// The stand-in client: says it is up, then for each round waits for its file to turn read-only.
const WATCHER = String.raw`
import os, sys, time
flags, idx, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
open("%s/up-%s" % (flags, idx), "w").close()
for r in range(rounds):
    name = "reach-%d.txt" % r
    while os.access(name, os.W_OK): time.sleep(0.001)
    seen = time.time_ns() / 1e6
    tmp = "%s/.seen-%s-%d" % (flags, idx, r)
    open(tmp, "w").write(repr(seen))
    os.rename(tmp, "%s/seen-%s-%d" % (flags, idx, r))
`;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, ok, said = () => "", ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline)
      throw new Error(`bench: timed out waiting for ${what}; the runs said:\n${said()}`);
    await sleep(2);
  }
}

/** Untracked files nobody holds, one per round, made before any session can see them appear. */
export function prepareReach(repo, rounds) {
  const files = [...Array(rounds).keys()].map((r) => `reach-${r}.txt`);
  for (const f of files) writeFileSync(join(repo, f), "peer\n");
  return files;
}

/**
 * `claim(file)` runs the peer's pre-tool hook for a Write of `file` (synchronously). Starts
 * `jails` runs, takes `rounds` claims one after another, and returns the section's lines.
 */
export async function claimReach({ bin, repo, work, env, jails, files, claim }) {
  const rounds = files.length;
  const flags = join(work, "reach");
  mkdirSync(flags, { recursive: true });
  writeFileSync(join(flags, "watcher.py"), WATCHER);
  const config = join(repo, ".tandem/config.jsonc");
  const launch = { command: "python3", args: [join(flags, "watcher.py"), flags] };
  const before = readFileSync(config, "utf8");
  // init's JSONC: whole-line comments and trailing commas, nothing else a parse would trip on.
  const parsed = JSON.parse(before.replace(/^\s*\/\/.*$/gm, "").replace(/,(\s*[}\]])/g, "$1"));
  writeFileSync(config, JSON.stringify({ ...parsed, subagents: { clients: { codex: launch } } }));
  const runs = [];
  let said = "";
  try {
    for (let i = 0; i < jails; i++) {
      const args = [bin, "run", "codex", "--", String(i), String(rounds)];
      const child = spawn(process.execPath, args, { cwd: repo, env, stdio: ["ignore", "ignore", "pipe"] });
      child.stderr.on("data", (d) => (said += d));
      runs.push(child);
    }
    await until(
      `${jails} jailed watchers`,
      () => [...Array(jails).keys()].every((i) => existsSync(join(flags, `up-${i}`))),
      () => said,
    );
    const reach = [];
    const hook = [];
    for (let r = 0; r < rounds; r++) {
      const start = Date.now();
      // Untracked and nobody's: the claim makes it the peer's uncommitted file, so plans bind it.
      claim(files[r]);
      const taken = Date.now();
      const seen = (i) => join(flags, `seen-${i}-${r}`);
      await until(
        `round ${r} in every jail`,
        () => [...Array(jails).keys()].every((i) => existsSync(seen(i))),
        () => said,
      );
      const last = Math.max(...[...Array(jails).keys()].map((i) => Number(readFileSync(seen(i), "utf8"))));
      hook.push(taken - start);
      reach.push(last - taken);
    }
    const ms = (xs) => `${median(xs).toFixed(0)} | ${percentile(xs, 0.95).toFixed(0)}`;
    return [
      `A claim change reaching every live jail: ${jails} clients under \`tandem run\`, ${rounds} claims, one after another:`,
      "",
      "| from → to | p50 ms | p95 ms |",
      "|---|---:|---:|",
      `| peer's pre-tool hook starts → claim in the store (hook exits) | ${ms(hook)} |`,
      `| claim in the store → read-only in all ${jails} jails | ${ms(reach)} |`,
      "",
      "The second is the follow loop of decision 0056: the store directory's change, a 100 ms settle, each run's plan recomputed (store + `git status`), the keeper's `mount`.",
      "",
    ];
  } finally {
    for (const p of runs) p.kill();
    writeFileSync(config, before);
  }
}
