import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { sessionByNative } from "../../src/store/sessions/rows.js";
import { agentShell, runInAgent } from "../helpers/agent-shell.js";
import { THIN_BIN, tandem } from "../helpers/cli.js";
import { FOUR_FUNCTIONS } from "../helpers/four-functions.js";
import { installGitHooks } from "../helpers/git-hooks.js";
import { claudeWrite, codexPatch, denied, ledger, type Payload } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { initRepo } from "../helpers/repo.js";
import { restorable } from "../helpers/scenario.js";

/** Issue 40 items 1 and 2: two agents, one file, claims on lines, an author for every hunk. */

const ORIGINAL = FOUR_FUNCTIONS;

interface World {
  repo: string;
  agents: Record<string, { CLAUDE_PID: string }>;
}

/** Two agents that have each started a turn: built once per file, put back at its path per test. */
const world = restorable<World>("line-claims", async (base) => {
  const repo = initRepo(join(base, "repo"), { "app.ts": ORIGINAL, "README.md": "hi\n" });
  const w = { repo, agents: { A: agentShell(), B: agentShell() } };
  for (const who of ["A", "B"]) {
    const payload = { session_id: who, cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "go on" };
    await hook("claude-code", "user-prompt-submit", payload, as(w, who));
  }
  return w;
});

const as = (w: World, who: string) => ({ cwd: w.repo, env: { ...w.agents[who] } });
const read = (w: World) => readFileSync(join(w.repo, "app.ts"), "utf8");

const claudeEdit = (repo: string, who: string, oldString: string, newString: string): Payload => ({
  ...claudeWrite(repo, who, "app.ts"),
  tool_name: "Edit",
  tool_input: {
    file_path: join(repo, "app.ts"),
    old_string: oldString,
    new_string: newString,
    replace_all: false,
  },
});

/** One tool call through the real pre- and post-tool hooks, the tool's write between them; the refusal if any. */
async function call(w: World, who: string, payload: Payload, after: () => string): Promise<string | null> {
  const refused = denied(await hook("claude-code", "pre-tool-use", payload, as(w, who)));
  if (refused !== null) return refused;
  writeFileSync(join(w.repo, "app.ts"), after());
  await hook("claude-code", "post-tool-use", { ...payload, hook_event_name: "PostToolUse" }, as(w, who));
  return null;
}

function edit(w: World, who: string, oldString: string, newString: string): Promise<string | null> {
  return call(w, who, claudeEdit(w.repo, who, oldString, newString), () =>
    read(w).replace(oldString, newString),
  );
}

function writeAll(w: World, who: string, text: string): Promise<string | null> {
  return call(w, who, claudeWrite(w.repo, who, "app.ts", text), () => text);
}

interface Blamed {
  path: string;
  hunks: { first: number; last: number; authors: { session: string }[] }[];
}

function blame(w: World): Blamed {
  const r = runInAgent(w.agents.A!, THIN_BIN, ["blame", "app.ts", "--json"], {
    cwd: w.repo,
    env: { ...process.env, ...w.agents.A },
  });
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout) as Blamed;
}

/** Each hunk's lines and authors, the sessions named by the ids their client gave them. */
function authorsOf(w: World, b: Blamed): [number, number, string][] {
  const db = openDb(join(w.repo, ".git", "tandem"));
  try {
    const native = new Map(["A", "B"].map((n) => [sessionByNative(db, "claude-code", n)?.id, n]));
    return b.hunks.map((h) => [
      h.first,
      h.last,
      h.authors.map((a) => native.get(a.session) ?? a.session).join("+"),
    ]);
  } finally {
    db.close();
  }
}

describe("two agents edit different functions of one file", () => {
  it("Edit and Write far apart are both allowed, the file holds both, and each hunk has its author", async () => {
    const w = await world();
    expect(await edit(w, "A", "return a;", "return a * 10;")).toBeNull();
    // B's Edit of gamma: A holds app.ts as a whole file, B's change keeps clear of A's lines.
    expect(await edit(w, "B", "return a + b;", "return a - b;")).toBeNull();
    const both = read(w);
    expect(both).toContain("return a * 10;");
    expect(both).toContain("return a - b;");
    // B's Write of the whole file, A's line kept as it stands, a change in delta added.
    expect(await writeAll(w, "B", both.replace("return 0;", "return 42;"))).toBeNull();
    expect(read(w)).toBe(
      ORIGINAL.replace("return a;", "return a * 10;")
        .replace("return a + b;", "return a - b;")
        .replace("return 0;", "return 42;"),
    );
    expect(authorsOf(w, blame(w))).toEqual([
      [4, 4, "A"],
      [16, 16, "B"],
      [22, 22, "B"],
    ]);
  });

  it("an edit on or beside a peer's lines is refused, naming the lines and their author; nothing changes", async () => {
    const w = await world();
    expect(await edit(w, "A", "return a;", "return a * 10;")).toBeNull();
    const before = read(w);
    const onTop = await edit(w, "B", "return a * 10;", "return a * 11;");
    expect(onTop).toMatch(/app\.ts is shared by lines/);
    expect(onTop).toMatch(/- line 4: uncommitted work of \S+/);
    // Two lines below A's line: inside the three-line margin.
    expect(await edit(w, "B", "export function beta() {", "export function beta2() {")).toMatch(
      /line 4: uncommitted work/,
    );
    expect(read(w)).toBe(before);
  });

  it("a Write from a copy older than the peer's change is refused as dropping it, never merged", async () => {
    const w = await world();
    expect(await edit(w, "A", "return a;", "return a * 10;")).toBeNull();
    const stale = ORIGINAL.replace("return 0;", "return 42;");
    const refused = await writeAll(w, "B", stale);
    expect(refused).toMatch(/line 4: uncommitted work of \S+ \(this edit would remove them\)/);
    expect(read(w)).toContain("return a * 10;");
  });

  it("the holder is refused too when its edit touches a sharer's lines", async () => {
    const w = await world();
    expect(await edit(w, "A", "return a;", "return a * 10;")).toBeNull();
    expect(await edit(w, "B", "return a + b;", "return a - b;")).toBeNull();
    expect(await edit(w, "A", "return a - b;", "return a / b;")).toMatch(/line 16: uncommitted work of \S+/);
    expect(read(w)).toContain("return a - b;");
  });
});

describe("a Codex patch shares the file by lines too", () => {
  const patch = (minus: string, plus: string) =>
    `*** Begin Patch\n*** Update File: app.ts\n@@\n-${minus}\n+${plus}\n*** End Patch\n`;

  it("an update far from the holder's lines is allowed; one on them is refused naming the line", async () => {
    const w = await world();
    expect(await edit(w, "A", "return a;", "return a * 10;")).toBeNull();
    const far = codexPatch(w.repo, "C", patch("  return a + b;", "  return a - b;"));
    expect(denied(await hook("codex", "pre-tool-use", far, { cwd: w.repo }))).toBeNull();
    const near = codexPatch(w.repo, "C", patch("  return a * 10;", "  return a * 11;"));
    expect(denied(await hook("codex", "pre-tool-use", near, { cwd: w.repo }))).toMatch(
      /line 4: uncommitted work of \S+/,
    );
  });
});

describe("each commits its own", () => {
  const inside = (w: World, who: string) => ({
    cwd: w.repo,
    inside: w.agents[who]!,
    env: { TANDEM_REQUIRE_GIT_FINALIZATION: "1" },
  });
  const gitIn = (w: World, who: string, args: string[]) =>
    runInAgent(w.agents[who]!, "git", args, { cwd: w.repo, env: { ...process.env, ...w.agents[who] } });
  const committed = (w: World) => gitIn(w, "A", ["show", "--format=", "-U0", "HEAD"]).stdout;

  it("a commit carrying a peer's lines is refused; tandem stage commits only one's own; end-turn checks pass; the claim is released", async () => {
    const w = await world();
    installGitHooks(w.repo);
    expect(await edit(w, "A", "return a;", "return a * 10;")).toBeNull();
    expect(await edit(w, "B", "return a + b;", "return a - b;")).toBeNull();
    // B's line is B's to commit, though B holds no claim on the file.
    const early = tandem(["status", "--end-turn", "--session", "B"], inside(w, "B"));
    expect(early.code).toBe(1);
    expect(early.stderr).toMatch(/app\.ts \(modified\)/);

    // B stages the whole file: it carries A's line 4, and the pre-commit hook says how to stage one's own.
    expect(gitIn(w, "B", ["add", "app.ts"]).code).toBe(0);
    const mixed = gitIn(w, "B", ["commit", "-m", "gamma subtracts"]);
    expect(mixed.code).not.toBe(0);
    expect(mixed.stderr).toMatch(/app\.ts line 4 \(uncommitted work of \S+\)/);
    expect(mixed.stderr).toMatch(/tandem stage app\.ts/);
    expect(gitIn(w, "B", ["restore", "--staged", "app.ts"]).code).toBe(0);

    const staged = tandem(["stage", "app.ts"], inside(w, "B"));
    expect(staged.stderr).toBe("");
    expect(staged.stdout).toMatch(/Staged 1 hunk of \S+ in app\.ts; left 1 hunk of other sessions unstaged/);
    expect(gitIn(w, "B", ["commit", "-m", "gamma subtracts"]).code).toBe(0);
    expect(committed(w)).toContain("+  return a - b;");
    expect(committed(w)).not.toContain("a * 10");
    expect(read(w)).toContain("return a * 10;");
    expect(tandem(["status", "--end-turn", "--session", "B"], inside(w, "B")).code).toBe(0);

    // A, the holder, commits its own line; the file is clean and its claim released.
    expect(tandem(["stage", "app.ts"], inside(w, "A")).stdout).toMatch(/Staged 1 hunk of \S+ in app\.ts\./);
    expect(gitIn(w, "A", ["commit", "-m", "alpha scales"]).code).toBe(0);
    expect(committed(w)).toContain("+  return a * 10;");
    expect(tandem(["status", "--end-turn", "--session", "A"], inside(w, "A")).code).toBe(0);
    expect(ledger(w.repo).claims).toEqual([]);
  });
});

describe("claims release per hunk", () => {
  it("the holder commits its own first: its end-turn check passes and its claim ends while the sharer's line stays", async () => {
    const w = await world();
    installGitHooks(w.repo);
    const inside = (who: string) => ({
      cwd: w.repo,
      inside: w.agents[who]!,
      env: { TANDEM_REQUIRE_GIT_FINALIZATION: "1" },
    });
    expect(await edit(w, "A", "return a;", "return a * 10;")).toBeNull();
    expect(await edit(w, "B", "return a + b;", "return a - b;")).toBeNull();
    expect(ledger(w.repo).claims.map((c) => c.path)).toEqual(["app.ts"]);
    expect(tandem(["stage", "app.ts"], inside("A")).code).toBe(0);
    const commit = runInAgent(w.agents.A!, "git", ["commit", "-m", "alpha scales"], {
      cwd: w.repo,
      env: { ...process.env, ...w.agents.A },
    });
    expect(commit.code).toBe(0);
    expect(read(w)).toContain("return a - b;");
    expect(tandem(["status", "--end-turn", "--session", "A"], inside("A")).code).toBe(0);
    expect(ledger(w.repo).claims).toEqual([]);
    expect(tandem(["status", "--end-turn", "--session", "B"], inside("B")).code).toBe(1);
  });
});

describe("undo per session", () => {
  const inside = (w: World, who: string) => ({ cwd: w.repo, inside: w.agents[who]! });

  it("previews first, then takes back only A's hunks; B's lines stay byte-identical", async () => {
    const w = await world();
    expect(await edit(w, "A", "return a;", "return a * 10;")).toBeNull();
    expect(await edit(w, "B", "return a + b;", "return a - b;")).toBeNull();
    const withBoth = read(w);
    const preview = tandem(["undo"], inside(w, "A"));
    expect(preview.stderr).toBe("");
    expect(preview.stdout).toContain("app.ts:\n  line 4:\n    -   return a * 10;\n    +   return a;\n");
    expect(preview.stdout).toMatch(/Preview only: nothing changed\. Run `tandem undo --yes`/);
    expect(read(w)).toBe(withBoth);

    const undone = tandem(["undo", "--yes"], inside(w, "A"));
    expect(undone.stderr).toBe("");
    expect(undone.stdout).toMatch(/Undid 1 hunk of \S+ in 1 file/);
    expect(read(w)).toBe(ORIGINAL.replace("return a + b;", "return a - b;"));
  });

  it("a later change of another author inside A's hunk is a conflict: nothing changes", async () => {
    const w = await world();
    expect(await edit(w, "A", "return a;", "return a * 10;")).toBeNull();
    // B meets A in the file: from here on Tandem tracks it by lines.
    expect(await edit(w, "B", "return a + b;", "return a - b;")).toBeNull();
    // A person edits A's line from their editor: no hook sees it.
    writeFileSync(join(w.repo, "app.ts"), read(w).replace("return a * 10;", "return a * 100;"));
    const before = read(w);
    const r = tandem(["undo", "--yes"], inside(w, "A"));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/line 4: conflict: also changed by an unattributed writer/);
    expect(r.stderr).toMatch(/undo refused, nothing changed/);
    expect(read(w)).toBe(before);
  });
});
