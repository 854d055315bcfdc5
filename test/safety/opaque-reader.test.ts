/**
 * Issue 25, deliverable 3: what the shell reader cannot be sure of is opaque. A holds uncommitted
 * edits to f.txt and src/t.txt; B, a second live agent, runs each command through the real
 * pre-tool hook, for real in the repository, and through the real post-tool hook. Where `cd` goes
 * or what a link points at must either be resolved exactly (then the claim refuses up front) or
 * put the command under the safety net (then `tandem recover` puts A's bytes back and A is told).
 */
import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { claudeBash, claudeWrite, denied, fakeAgent } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { initRepo } from "../helpers/repo.js";
import { restorable } from "../helpers/scenario.js";

const A_BYTES: Record<string, string> = { "f.txt": "A's uncommitted edit\n", "src/t.txt": "A's t\n" };

type World = { base: string; repo: string; a: Record<string, string>; b: Record<string, string> };

/** Built once through the real hooks, put back at the same path for each case (the store records absolute paths). */
const world = restorable("opaque-reader", build);

async function build(base: string): Promise<World> {
  const repo = initRepo(join(base, "repo"), {
    "f.txt": "committed\n",
    "src/t.txt": "committed t\n",
    "docs/README.md": "docs\n",
    "README.md": "hi\n",
  });
  const a = fakeAgent();
  const b = fakeAgent();
  for (const file of Object.keys(A_BYTES)) {
    expect(
      denied(await hook("claude-code", "pre-tool-use", claudeWrite(repo, "A", file), { cwd: repo, env: a })),
    ).toBeNull();
    writeFileSync(join(repo, file), A_BYTES[file]!);
  }
  expect(
    denied(await hook("claude-code", "pre-tool-use", claudeWrite(repo, "B", "b.txt"), { cwd: repo, env: b })),
  ).toBeNull();
  return { base, repo, a, b };
}

interface Case {
  command: string;
  expected: "refused" | "recovered";
  /** The directory B's shell is in (relative to the repository). */
  dir?: string;
  /** The environment B's agent (and so its shell and hooks) carries. */
  env?: (w: World) => Record<string, string>;
  /** What happened before: another call of B's (through the hooks), or a file made by hand. */
  before?: { call: string } | { made: (w: World) => void };
}

/** B's command through pre-tool, the shell, and post-tool; false when the pre-tool refused it. */
async function callAsB(w: World, c: Pick<Case, "command" | "dir" | "env">): Promise<boolean> {
  const cwd = join(w.repo, c.dir ?? "");
  const env = { ...w.b, ...(c.env?.(w) ?? {}) };
  const pre = await hook("claude-code", "pre-tool-use", claudeBash(cwd, "B", c.command), { cwd, env });
  if (denied(pre) !== null) return false;
  try {
    execFileSync("bash", ["-c", c.command], { cwd, stdio: "ignore", env: { ...process.env, ...env } });
  } catch {
    // A command that failed still ran: what it left behind is what counts.
  }
  await hook("claude-code", "post-tool-use", claudeBash(cwd, "B", c.command, "PostToolUse"), { cwd, env });
  return true;
}

async function run(w: World, c: Case): Promise<Case["expected"]> {
  if (c.before && "call" in c.before) expect(await callAsB(w, { ...c, command: c.before.call })).toBe(true);
  if (c.before && "made" in c.before) c.before.made(w);
  if (!(await callAsB(w, c))) {
    for (const [file, bytes] of Object.entries(A_BYTES))
      expect(readFileSync(join(w.repo, file), "utf8")).toBe(bytes);
    return "refused";
  }
  const clobbered = Object.keys(A_BYTES).filter((f) => readFileSync(join(w.repo, f), "utf8") !== A_BYTES[f]);
  expect(clobbered.length).toBeGreaterThan(0); // the command did reach A's file: the case means something
  const told = await hook(
    "claude-code",
    "user-prompt-submit",
    { session_id: "A", cwd: w.repo, hook_event_name: "UserPromptSubmit", prompt: "go on" },
    { cwd: w.repo, env: w.a },
  );
  for (const file of clobbered) {
    expect(told.stdout).toContain(`tandem recover ${file}`);
    const r = tandem(["recover", file, "--session", "A"], { cwd: w.repo });
    expect(r.stderr).toBe("");
    expect(readFileSync(join(w.repo, file), "utf8")).toBe(A_BYTES[file]);
  }
  return "recovered";
}

/** d → src/inner, made by hand. */
function innerLink(w: World): void {
  mkdirSync(join(w.repo, "src/inner"));
  symlinkSync(join(w.repo, "src/inner"), join(w.repo, "d"));
}

const CDPATH_REPO = (w: World) => ({ CDPATH: w.repo });

const CASES: [string, Case][] = [
  // cd: resolved exactly, so the claim refuses
  [
    "CDPATH set to the directory cd starts in",
    { command: "export CDPATH=$PWD; cd src && echo x > t.txt", expected: "refused" },
  ],
  ["cd alone after HOME=…", { command: "HOME=$PWD/src; cd; echo x > t.txt", expected: "refused" }],
  ["cd ~ after HOME=…", { command: "HOME=$PWD/src; cd ~ && echo x > t.txt", expected: "refused" }],
  [
    "HOME=… cd (the command's own environment)",
    { command: "HOME=$PWD/src cd && echo x > t.txt", expected: "refused" },
  ],
  ["CDPATH=. cd src", { command: "CDPATH=. cd src && echo x > t.txt", expected: "refused" }],
  // cd: not certain, so the safety net
  [
    "CDPATH inherited from the agent, from another directory",
    { command: "cd src && echo x > t.txt", dir: "docs", env: CDPATH_REPO, expected: "recovered" },
  ],
  [
    "CDPATH exported by the command, from another directory",
    {
      command: "export CDPATH=$(cd .. && pwd); cd src && echo x > t.txt",
      dir: "docs",
      expected: "recovered",
    },
  ],
  ["cdable_vars", { command: "shopt -s cdable_vars; v=src; cd v && echo x > t.txt", expected: "recovered" }],
  ["cd - (OLDPWD)", { command: "cd src && cd .. && cd - && echo x > t.txt", expected: "recovered" }],
  [
    "nohup cd: a program's cd leaves the shell where it was",
    { command: "nohup cd src; echo x > f.txt", expected: "refused" },
  ],
  ["pushd -n: only the stack changes", { command: "pushd -n src; echo x > f.txt", expected: "refused" }],
  [
    "set -P, then cd .. out of a symlinked directory",
    {
      command: "set -P; cd d && cd .. && echo x > t.txt",
      before: { made: innerLink },
      expected: "recovered",
    },
  ],
  [
    "pushd through CDPATH",
    { command: "pushd src && echo x > t.txt", dir: "docs", env: CDPATH_REPO, expected: "recovered" },
  ],
  // links made in the command and written through
  ["ln -s, then write through it", { command: "ln -s f.txt l && echo x > l", expected: "recovered" }],
  [
    "ln -sf to a directory, then write inside",
    { command: "ln -sfn src d && echo x > d/t.txt", expected: "recovered" },
  ],
  ["cp -s, then write through it", { command: "cp -s $PWD/f.txt l && echo x > l", expected: "recovered" }],
  // hard links: making one is a write to the file
  ["ln (hard) to A's file", { command: "ln f.txt h", expected: "refused" }],
  ["link to A's file", { command: "link f.txt h", expected: "refused" }],
  ["cp -l into a directory", { command: "mkdir -p d && cp -l f.txt d/", expected: "refused" }],
  ["cp -al of A's directory", { command: "cp -al src copy", expected: "refused" }],
  ["ln -T", { command: "ln -T f.txt h && echo x > h", expected: "refused" }],
  // links made in an earlier call
  [
    "a symlink B made before, written now",
    { command: "echo x > l", before: { call: "ln -s f.txt l" }, expected: "refused" },
  ],
  [
    "a symlinked directory B made before, written inside now",
    { command: "echo x > d/t.txt", before: { call: "ln -s src d" }, expected: "refused" },
  ],
  [
    "a symlinked directory made before, then .. from inside it",
    {
      command: "cd d && echo x > ../t.txt",
      before: { made: innerLink },
      expected: "refused",
    },
  ],
  // A's file under another name: judged as A's file (decision 0045), not left to the net.
  [
    "a hard link made by hand before, written now",
    {
      command: "echo x > h",
      before: { made: (w) => linkSync(join(w.repo, "f.txt"), join(w.repo, "h")) },
      expected: "refused",
    },
  ],
];

describe("B's commands that the reader cannot read by names alone", () => {
  it.each(CASES)("%s", async (_name, c) => {
    expect(await run(await world(), c)).toBe(c.expected);
  });
});
