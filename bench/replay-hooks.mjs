// The replay through the real hooks (issue 40 item 6): a sample of the windows bench/replay.mjs
// decides in process, run again as agent sessions through `tandem hook claude-code` processes of
// the built binary in a scratch repository, each edit a Write of the whole file (pre-tool-use,
// the write, post-tool-use). Each agent's verdict and each file's final bytes are compared with the
// in-process replay of the same window: the hooks must refuse the same agents and leave the same text.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { carry } from "./replay-fixture.mjs";

function hook(bin, repo, event, payload) {
  const out = execFileSync(process.execPath, [bin, "hook", "claude-code", event], {
    cwd: repo,
    input: JSON.stringify(payload),
    env: { ...process.env, CLAUDE_PROJECT_DIR: "", TANDEM_SERVER: "0", TANDEM_REMOTE: "0" },
    encoding: "utf8",
  });
  if (!out.trim()) return null;
  const o = JSON.parse(out).hookSpecificOutput;
  return o?.permissionDecision === "deny" ? (o.permissionDecisionReason ?? "") : null;
}

function scratchRepo(files) {
  const repo = join(mkdtempSync(join(tmpdir(), "tandem-replay-")), "repo");
  mkdirSync(repo, { recursive: true });
  const git = (...args) => execFileSync("git", ["-C", repo, ...args], { encoding: "utf8" });
  git("init", "-q", "-b", "main");
  for (const [path, lines] of files) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), lines.join(""));
  }
  git("add", "-A");
  git("-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "--allow-empty", "-m", "base");
  return repo;
}

/** One window through the hooks: per agent that had an edit to try, whether it was refused; the files' texts. */
function window(bin, fx, commits) {
  const bases = new Map();
  for (const c of commits)
    for (const f of c.files) if (!bases.has(f.path)) bases.set(f.path, fx.text(f.before));
  const repo = scratchRepo(bases);
  const refused = [];
  commits.forEach((c, i) => {
    const session = `replay-${i}`;
    hook(bin, repo, "user-prompt-submit", {
      session_id: session,
      cwd: repo,
      hook_event_name: "UserPromptSubmit",
      prompt: "go",
    });
    let no = false;
    let tried = false;
    for (const f of c.files) {
      const before = fx.text(f.before);
      const after = fx.text(f.after);
      if (carry(f.own, before, after, bases.get(f.path)) === null) continue;
      tried = true;
      const file = join(repo, f.path);
      const now = readFileSync(file, "utf8").split(/(?<=\n)/);
      const proposed = carry(f.own, before, after, now);
      if (proposed === null) {
        no = true;
        continue;
      }
      const content = proposed.join("");
      const payload = {
        session_id: session,
        transcript_path: `/tmp/${session}.jsonl`,
        cwd: repo,
        hook_event_name: "PreToolUse",
        tool_name: "Write",
        tool_input: { file_path: file, content },
        tool_use_id: `${session}-${f.path}`,
      };
      if (hook(bin, repo, "pre-tool-use", payload) !== null) {
        no = true;
        continue;
      }
      writeFileSync(file, content);
      hook(bin, repo, "post-tool-use", { ...payload, hook_event_name: "PostToolUse", tool_response: {} });
    }
    if (tried) refused.push(no);
  });
  const texts = new Map([...bases.keys()].map((p) => [p, readFileSync(join(repo, p), "utf8")]));
  rmSync(dirname(repo), { recursive: true, force: true });
  return { refused, texts };
}

/** The first `count` windows of k agents through the hooks, against the in-process replay. */
export function hookReplay({ bin, fx, diffLines, replayWindow, k, count }) {
  const out = { windows: 0, agents: 0, refused: 0, verdictsDiffer: 0, filesDiffer: 0 };
  for (let i = 0; i + k <= fx.commits.length && out.windows < count; i += k) {
    const commits = fx.commits.slice(i, i + k).map((c) => ({
      ...c,
      files: c.files.map((f) => ({ ...f, own: diffLines(fx.text(f.before), fx.text(f.after)) })),
    }));
    const r = window(bin, fx, commits);
    const finals = new Map();
    const stats = { times: [], lines: [], lost: 0, unplaced: 0, unplacedOnPeers: 0 };
    const inProcess = replayWindow(fx, fx.commits.slice(i, i + k), stats, false, finals);
    out.windows++;
    out.agents += r.refused.length;
    out.refused += r.refused.filter(Boolean).length;
    out.verdictsDiffer += r.refused.filter((no, j) => no !== inProcess[j]?.byLines).length;
    for (const [path, lines] of finals) if (r.texts.get(path) !== lines.join("")) out.filesDiffer++;
  }
  return out;
}
