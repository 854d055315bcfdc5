import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentShell } from "../helpers/agent-shell.js";
import { tandem } from "../helpers/cli.js";
import { FOUR_FUNCTIONS } from "../helpers/four-functions.js";
import { claudeWrite, denied, ledger, type Payload } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/** Issue 40 item 4, decision 0074: `tandem undo` of one turn or of `--since`, real hooks, a real repository. */

const ORIGINAL = FOUR_FUNCTIONS;

interface World {
  repo: string;
  agents: Record<string, { CLAUDE_PID: string }>;
}

const as = (w: World, who: string) => ({ cwd: w.repo, env: { ...w.agents[who] } });
const inside = (w: World, who: string) => ({ cwd: w.repo, inside: w.agents[who]! });
const read = (w: World) => readFileSync(join(w.repo, "app.ts"), "utf8");

/** A new turn of `who`: its prompt through the real hook. */
async function prompt(w: World, who: string): Promise<void> {
  const payload = { session_id: who, cwd: w.repo, hook_event_name: "UserPromptSubmit", prompt: "go on" };
  expect((await hook("claude-code", "user-prompt-submit", payload, as(w, who))).code).toBe(0);
}

async function world(): Promise<World> {
  const repo = initRepo(join(tempDir(), "repo"), { "app.ts": ORIGINAL, "README.md": "hi\n" });
  const w = { repo, agents: { A: agentShell(), B: agentShell() } };
  await prompt(w, "A");
  await prompt(w, "B");
  return w;
}

/** One Edit through the real pre- and post-tool hooks, the tool's write between them; the refusal if any. */
async function edit(w: World, who: string, oldString: string, newString: string): Promise<string | null> {
  const payload: Payload = {
    ...claudeWrite(w.repo, who, "app.ts"),
    tool_name: "Edit",
    tool_input: {
      file_path: join(w.repo, "app.ts"),
      old_string: oldString,
      new_string: newString,
      replace_all: false,
    },
  };
  const refused = denied(await hook("claude-code", "pre-tool-use", payload, as(w, who)));
  if (refused !== null) return refused;
  writeFileSync(join(w.repo, "app.ts"), read(w).replace(oldString, newString));
  await hook("claude-code", "post-tool-use", { ...payload, hook_event_name: "PostToolUse" }, as(w, who));
  return null;
}

/** A writes alpha in turn 1, B writes gamma, A writes delta in turn 2: the file then, and the bytes B owns. */
async function twoTurns(w: World): Promise<string> {
  expect(await edit(w, "A", "return a;", "return a * 10;")).toBeNull();
  expect(await edit(w, "B", "return a + b;", "return a - b;")).toBeNull();
  await prompt(w, "A");
  expect(await edit(w, "A", "return 0;", "return 42;")).toBeNull();
  return read(w);
}

const TURN_ONE = ORIGINAL.replace("return a;", "return a * 10;").replace("return a + b;", "return a - b;");

describe("undo of one turn", () => {
  it("--turn takes back only the latest turn's hunk; turn 1's and the peer's bytes stay", async () => {
    const w = await world();
    const both = await twoTurns(w);
    const preview = tandem(["undo", "--turn"], inside(w, "A"));
    expect(preview.stderr).toBe("");
    expect(preview.stdout).toContain("app.ts:\n  line 22:\n    -   return 42;\n    +   return 0;\n");
    expect(preview.stdout).not.toContain("line 4:");
    expect(preview.stdout).toMatch(/Preview only: nothing changed\. Run `tandem undo --turn --yes`/);
    expect(read(w)).toBe(both);

    const undone = tandem(["undo", "--turn", "--yes"], inside(w, "A"));
    expect(undone.stderr).toBe("");
    expect(undone.stdout).toMatch(/Undid 1 hunk of \S+ written in turn 2 in 1 file/);
    expect(read(w)).toBe(TURN_ONE);
  });

  it("--turn 1 takes back the first turn's hunk and leaves turn 2's and the peer's", async () => {
    const w = await world();
    await twoTurns(w);
    const undone = tandem(["undo", "--turn", "1", "--yes"], inside(w, "A"));
    expect(undone.stderr).toBe("");
    expect(read(w)).toBe(
      ORIGINAL.replace("return a + b;", "return a - b;").replace("return 0;", "return 42;"),
    );
  });

  it("a hunk begun in turn 1 and extended in turn 2 is reported, and nothing changes", async () => {
    const w = await world();
    expect(await edit(w, "A", "return a;", "return a * 10;")).toBeNull();
    expect(await edit(w, "B", "return a + b;", "return a - b;")).toBeNull();
    await prompt(w, "A");
    expect(
      await edit(w, "A", "  const b = 2;\n  return a * 10;", "  const b = 3;\n  return a * 10;"),
    ).toBeNull();
    const before = read(w);
    const r = tandem(["undo", "--turn", "--yes"], inside(w, "A"));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/lines 3–4: conflict: also written outside turn 2/);
    expect(r.stderr).toMatch(/undo refused, nothing changed/);
    expect(read(w)).toBe(before);
  });

  it("a turn the session never had is named, with the turns it has", async () => {
    const w = await world();
    await twoTurns(w);
    const r = tandem(["undo", "--turn", "7"], inside(w, "A"));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/has turns 1 to 2; there is no turn 7/);
  });
});

describe("undo --since", () => {
  it("takes back what the session wrote since the time, nothing before it, no peer's byte", async () => {
    const w = await world();
    const both = await twoTurns(w);
    // The time A's second prompt was recorded: between A's two hunks.
    const prompts = ledger(w.repo).events.filter((e) => e.kind === "prompt.submitted");
    const since = new Date(prompts.at(-1)!.ts).toISOString();
    const preview = tandem(["undo", "--since", since], inside(w, "A"));
    expect(preview.stderr).toBe("");
    expect(preview.stdout).toContain(`Run \`tandem undo --since ${since} --yes\``);
    expect(read(w)).toBe(both);
    const undone = tandem(["undo", "--since", since, "--yes"], inside(w, "A"));
    expect(undone.stderr).toBe("");
    expect(undone.stdout).toMatch(/Undid 1 hunk of \S+ written since \S+ in 1 file/);
    expect(read(w)).toBe(TURN_ONE);
  });

  it("--since nonsense says what it takes, and nothing changes", async () => {
    const w = await world();
    const both = await twoTurns(w);
    const r = tandem(["undo", "--since", "nonsense", "--yes"], inside(w, "A"));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /--since "nonsense" is neither a duration \(90s, 45m, 2h, 1d\) nor a date and time/,
    );
    expect(read(w)).toBe(both);
  });
});
