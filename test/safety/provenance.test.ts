import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { sessionByNative } from "../../src/store/sessions/rows.js";
import { agentShell, runInAgent } from "../helpers/agent-shell.js";
import { tandem } from "../helpers/cli.js";
import { FOUR_FUNCTIONS } from "../helpers/four-functions.js";
import { installGitHooks } from "../helpers/git-hooks.js";
import { claudeWrite, denied, type Payload } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/** Issue 40 item 5: a commit of one's own hunks carries trailers naming the session, client and task. */

const ORIGINAL = FOUR_FUNCTIONS;

async function world() {
  const repo = initRepo(join(tempDir(), "repo"), { "app.ts": ORIGINAL, "README.md": "hi\n" });
  installGitHooks(repo);
  const agents: Record<string, { CLAUDE_PID: string }> = { A: agentShell(), B: agentShell() };
  const as = (who: string) => ({ cwd: repo, env: { ...agents[who] } });
  for (const who of ["A", "B"]) {
    const payload = { session_id: who, cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "go on" };
    await hook("claude-code", "user-prompt-submit", payload, as(who));
  }
  const file = join(repo, "app.ts");
  /** An Edit through the real pre- and post-tool hooks, the tool's write between them. */
  const edit = async (who: string, from: string, to: string): Promise<string | null> => {
    const payload: Payload = {
      ...claudeWrite(repo, who, "app.ts"),
      tool_name: "Edit",
      tool_input: { file_path: file, old_string: from, new_string: to, replace_all: false },
    };
    const refused = denied(await hook("claude-code", "pre-tool-use", payload, as(who)));
    if (refused !== null) return refused;
    writeFileSync(file, readFileSync(file, "utf8").replace(from, to));
    await hook("claude-code", "post-tool-use", { ...payload, hook_event_name: "PostToolUse" }, as(who));
    return null;
  };
  const inside = (who: string) => ({ cwd: repo, inside: agents[who]! });
  const gitIn = (who: string, args: string[]) =>
    runInAgent(agents[who]!, "git", args, { cwd: repo, env: { ...process.env, ...agents[who] } });
  /** The session row's id and name for the client's session id. */
  const session = (who: string) => {
    const db = openDb(join(repo, ".git", "tandem"));
    try {
      const s = sessionByNative(db, "claude-code", who);
      if (!s) throw new Error(`no session ${who}`);
      return { id: s.id, name: s.name };
    } finally {
      db.close();
    }
  };
  const message = () => gitIn("A", ["log", "-1", "--format=%B"]).stdout;
  const trailers = () => gitIn("A", ["log", "-1", "--format=%(trailers:only,unfold)"]).stdout.trim();
  return { repo, edit, inside, gitIn, session, message, trailers };
}

describe("provenance that travels", () => {
  it("each session's staged commit names it, its client and task, and never the peer", async () => {
    const w = await world();
    expect(await w.edit("A", "return a;", "return a * 10;")).toBeNull();
    expect(await w.edit("B", "return a + b;", "return a - b;")).toBeNull();
    expect(tandem(["task", "gamma subtracts"], w.inside("B")).code).toBe(0);
    const a = w.session("A");
    const b = w.session("B");

    // Before committing, blame --json names both as Agent Trace conversations, in the file's order.
    const traced = JSON.parse(tandem(["blame", "app.ts", "--json"], w.inside("A")).stdout);
    expect(traced.version).toBe("0.1.0");
    expect(
      traced.files[0].conversations.map((c: { related: { url: string }[]; ranges: unknown[] }) => [
        c.related[0]?.url,
        c.ranges,
      ]),
    ).toEqual([
      [`tandem:session/${a.id}`, [{ start_line: 4, end_line: 4 }]],
      [`tandem:session/${b.id}`, [{ start_line: 16, end_line: 16 }]],
    ]);
    expect(traced.metadata["dev.tandem"].base).toBe(w.gitIn("A", ["rev-parse", "HEAD"]).stdout.trim());

    expect(tandem(["stage", "app.ts"], w.inside("B")).code).toBe(0);
    const commitB = w.gitIn("B", ["commit", "-m", "gamma: subtract"]);
    expect(commitB.stderr).not.toMatch(/hook skipped/);
    expect(commitB.code).toBe(0);
    expect(w.message().startsWith("gamma: subtract\n\n")).toBe(true);
    expect(w.trailers()).toBe(
      [
        `Tandem-Session: ${b.name} (${b.id})`,
        "Tandem-Client: claude-code",
        "Tandem-Task: gamma subtracts",
      ].join("\n"),
    );

    expect(tandem(["stage", "app.ts"], w.inside("A")).code).toBe(0);
    expect(w.gitIn("A", ["commit", "-m", "alpha: scale"]).code).toBe(0);
    expect(w.trailers()).toBe(
      [`Tandem-Session: ${a.name} (${a.id})`, "Tandem-Client: claude-code"].join("\n"),
    );
    expect(w.trailers()).not.toContain(b.id);
  });

  it("amending keeps one copy of each trailer; a commit of files not tracked by lines gets none", async () => {
    const w = await world();
    expect(await w.edit("A", "return a;", "return a * 10;")).toBeNull();
    expect(await w.edit("B", "return a + b;", "return a - b;")).toBeNull();
    expect(tandem(["stage", "app.ts"], w.inside("A")).code).toBe(0);
    expect(w.gitIn("A", ["commit", "-m", "alpha: scale"]).code).toBe(0);
    const once = w.trailers();
    expect(once).toMatch(/^Tandem-Session: .+\nTandem-Client: claude-code$/);
    // Amending runs the hook again over the same message: addIfDifferent keeps each trailer once.
    expect(w.gitIn("A", ["commit", "--amend", "--no-edit"]).code).toBe(0);
    expect(w.trailers()).toBe(once);

    writeFileSync(join(w.repo, "README.md"), "hello\n");
    expect(w.gitIn("A", ["add", "README.md"]).code).toBe(0);
    expect(w.gitIn("A", ["commit", "-m", "readme: greet"]).code).toBe(0);
    expect(w.trailers()).toBe("");
  });
});
