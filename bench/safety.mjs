// Safety-net cost for `npm run bench`: an opaque shell command's pre-tool-use and
// post-tool-use hooks, run back to back as one case, while 0, 10 or 100 of a live
// peer's claimed files are dirty, against two `node -e 0` (the floor of two hook
// processes). The first call copies the peer's files; the measured rounds find
// them unchanged, which must cost a stat each, not a read.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { compare, table, verdicts } from "./lib.mjs";

export function fixture(bin, peerFiles) {
  const work = mkdtempSync(join(tmpdir(), "tandem-bench-safety-"));
  const repo = join(work, "repo");
  mkdirSync(repo);
  execFileSync("git", ["init", "-q", "-b", "main", repo]);
  const id = ["-c", "user.name=b", "-c", "user.email=b@b"];
  execFileSync("git", ["-C", repo, ...id, "commit", "-q", "--allow-empty", "-m", "i"]);
  const env = { ...process.env, XDG_CONFIG_HOME: join(work, "xdg") };
  const hook = (client, event, payload) =>
    execFileSync(process.execPath, [bin, "hook", client, event], {
      cwd: repo,
      env,
      input: JSON.stringify(payload),
    });
  const names = Array.from({ length: peerFiles }, (_, i) => `peer/f${i}.txt`);
  // The peer claims its files in one patch, then leaves them dirty.
  const patch = `*** Begin Patch\n${names.map((n) => `*** Add File: ${n}\n+x`).join("\n")}\n*** End Patch\n`;
  hook("codex", "pre-tool-use", {
    session_id: "peer",
    turn_id: "t",
    cwd: repo,
    hook_event_name: "PreToolUse",
    tool_name: "apply_patch",
    tool_input: {
      command: names.length ? patch : "*** Begin Patch\n*** Add File: peer/only.txt\n+x\n*** End Patch\n",
    },
    tool_use_id: "p1",
  });
  mkdirSync(join(repo, "peer"), { recursive: true });
  for (const n of names) writeFileSync(join(repo, n), `peer's uncommitted bytes of ${n}\n`.repeat(40));
  return { work, repo, env };
}

const shell = (repo, event) => ({
  session_id: "actor",
  cwd: repo,
  hook_event_name: event,
  tool_name: "Bash",
  tool_input: { command: "python3 -c 'import sys'" },
  tool_use_id: "toolu_opaque",
});

function pairCase(bin, peerFiles) {
  const { work, repo, env } = fixture(bin, peerFiles);
  const pre = JSON.stringify(shell(repo, "PreToolUse"));
  const post = JSON.stringify(shell(repo, "PostToolUse"));
  // One measured case = both hook processes, as the client runs them around the command.
  const script = `"$0" "$1" hook claude-code pre-tool-use <<'EOF_PRE' >/dev/null\n${pre}\nEOF_PRE\n"$0" "$1" hook claude-code post-tool-use <<'EOF_POST' >/dev/null\n${post}\nEOF_POST\n`;
  const c = {
    name: `pre + post, opaque command, ${peerFiles} peer dirty files`,
    cmd: "sh",
    args: ["-c", script, process.execPath, bin],
    cwd: repo,
    env,
  };
  execFileSync(c.cmd, c.args, { cwd: repo, env }); // first call copies the peer's files
  return { c, work };
}

export function safetyBench(bin, rounds) {
  const cases = [0, 10, 100].map((n) => pairCase(bin, n));
  const baseline = {
    name: "node -e 0, twice",
    cmd: "sh",
    args: ["-c", `"$0" -e 0; "$0" -e 0`, process.execPath],
  };
  const result = compare(
    baseline,
    cases.map(({ c }, i) => ({ ...c, target: i === 1 ? 1.5 : undefined })),
    rounds,
  );
  for (const { work } of cases) rmSync(work, { recursive: true, force: true });
  return [
    "## Safety net around opaque shell commands",
    "",
    "Each case runs the pre-tool-use and post-tool-use hooks of one opaque command (`python3 -c …`) back to back,",
    "as the client does around it; the baseline is two `node -e 0` processes, the floor of any two hooks. The",
    "peer's files were copied on the first call; the measured calls find them unchanged (a stat each).",
    "",
    table(result),
    "",
    verdicts(result),
    "",
  ].join("\n");
}

/**
 * The clean takeover: B writes a committed, clean file whose claim a live peer took
 * more than a minute ago. git status runs for it before the write lock is taken.
 * The bench hands the claim back to the peer before each run (one UPDATE), so every
 * measured call takes the same path.
 */
export function takeoverBench(bin, rounds) {
  const { work, repo, env } = fixture(bin, 0);
  writeFileSync(join(repo, "c.txt"), "committed\n");
  execFileSync("git", ["-C", repo, "add", "c.txt"]);
  execFileSync("git", ["-C", repo, "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "c"]);
  const write = (session) =>
    JSON.stringify({
      session_id: session,
      cwd: repo,
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      tool_input: { file_path: join(repo, "c.txt"), content: "x" },
      tool_use_id: `t-${session}`,
    });
  execFileSync(process.execPath, [bin, "hook", "claude-code", "pre-tool-use"], {
    cwd: repo,
    env,
    input: write("holder"),
  });
  const db = new Database(join(repo, ".git", "tandem", "state.db"));
  db.prepare("UPDATE events SET ts = ts - 120000 WHERE kind = 'claim.acquired'").run();
  const held = db.prepare("SELECT session_id, acquired_seq FROM claims WHERE path = 'c.txt'").get();
  const handBack = db.prepare("UPDATE claims SET session_id = ?, acquired_seq = ? WHERE path = 'c.txt'");
  const c = {
    name: "pre-tool-use, Write taking over a peer's clean claim",
    cmd: process.execPath,
    args: [bin, "hook", "claude-code", "pre-tool-use"],
    cwd: repo,
    env,
    input: write("taker"),
    before: () => handBack.run(held.session_id, held.acquired_seq),
  };
  const result = compare({ name: "node -e 0", cmd: process.execPath, args: ["-e", "0"] }, [c], rounds);
  const taken = db.prepare("SELECT count(*) AS n FROM events WHERE kind = 'claim.released'").get().n;
  db.close();
  rmSync(work, { recursive: true, force: true });
  if (taken < rounds) throw new Error(`the takeover happened ${taken} times in ${rounds} rounds`);
  return [
    "## Clean takeover",
    "",
    "B's Write of a committed, clean file whose claim a live peer took over a minute ago. `git status` for",
    "that file runs before the write lock is taken; the short transaction re-checks that the claim did not",
    "change meanwhile (decision 0008). Every measured call performed the takeover.",
    "",
    table(result),
    "",
  ].join("\n");
}
