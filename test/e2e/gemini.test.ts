import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentShell, runInAgentAsync } from "../helpers/agent-shell.js";
import { TANDEM_BIN, tandem } from "../helpers/cli.js";
import { claudeWrite, denied, hook } from "../helpers/hooks.js";
import { g, writeFiles } from "../helpers/repo.js";
import { type GeminiFake, type GeminiRequest, startGeminiFake } from "./harness/gemini-fake.js";
import { ensureGemini } from "./harness/install-clients.js";
import { GEMINI_MODEL, geminiEnv, runGemini, writeGeminiHome } from "./harness/run-gemini.js";
import { claims, initProject, ledgerEvents, type Project, until } from "./support.js";

let entry: string;
let fake: GeminiFake;
const tierStart = Date.now();

beforeAll(async () => {
  entry = await ensureGemini();
  fake = await startGeminiFake();
});

afterAll(async () => {
  await fake?.close();
  console.log(`e2e: Gemini tier wall time ${Date.now() - tierStart} ms`);
});

const sessions = (p: Project) =>
  JSON.parse(tandem(["sessions", "--all", "--json"], { cwd: p.repo }).stdout) as {
    id: string;
    name: string;
    client: string;
    kind: string;
    task: string | null;
  }[];

const shell = (command: string) => ({ call: "run_shell_command", args: { command, description: "step" } });
const isRemediation = (r: GeminiRequest) =>
  r.lastText.startsWith("Tandem: this turn used tools, but the end-of-turn ritual is incomplete");

describe("real Gemini CLI beside a Claude Code session", () => {
  it("holds its file through an open turn, is refused a redirect into the peer's file, and is held to the ritual", async () => {
    const p = initProject("claude-code,gemini-cli");
    const home = join(p.base, "gemini-home");
    writeGeminiHome(home, [p.repo]);
    const gFile = join(p.repo, "g.txt");
    const go = join(p.base, "go");
    // The peer: a Claude Code session holding peer.txt (its recorded payload shape, through the hook entry).
    expect(
      denied(
        hook("claude-code", "pre-tool-use", claudeWrite(p.repo, "claude-peer", "peer.txt"), { cwd: p.repo }),
      ),
    ).toBeNull();
    writeFileSync(join(p.repo, "peer.txt"), "the peer's draft\n");

    fake.script(
      [
        { call: "write_file", args: { file_path: gFile, content: "from gemini\n" } },
        shell("echo overwritten > peer.txt"),
        // Holds the turn open until the test has looked.
        shell(`while [ ! -e '${go}' ]; do sleep 0.2; done`),
        (r) =>
          isRemediation(r) ? shell('tandem task "writing g.txt" && tandem status') : { text: "Wrote g.txt." },
        { text: "Ran the ritual." },
      ],
      (r) => r.text.includes("holder-run"),
    );
    const run = runGemini({
      entry,
      cwd: p.repo,
      prompt: "holder-run: write g.txt",
      baseUrl: fake.url,
      home,
      env: p.env,
    });

    await until(() => fake.requests.some((r) => r.text.includes("holder-run") && r.functionResponses === 2));
    // The redirect was refused before it ran, and the model read Tandem's reason.
    expect(p.read("peer.txt")).toBe("the peer's draft\n");
    const refused = fake.requests.find((r) => r.text.includes("holder-run") && r.functionResponses === 2)!;
    expect(refused.lastResult).toMatch(
      /Tool execution blocked: .*peer\.txt: held by agent-\w+ \(claude-code/s,
    );
    // While its turn is open, Gemini holds g.txt: the peer's write is refused.
    expect(p.read("g.txt")).toBe("from gemini\n");
    const gemini = sessions(p).find((s) => s.client === "gemini-cli")!;
    expect(claims(p)).toContainEqual(expect.objectContaining({ path: "g.txt", holder: gemini.name }));
    const peer = denied(
      hook("claude-code", "pre-tool-use", claudeWrite(p.repo, "claude-peer", "g.txt"), { cwd: p.repo }),
    );
    expect(peer).toMatch(new RegExp(`g\\.txt: held by ${gemini.name} \\(gemini-cli`));

    writeFileSync(go, "");
    const res = await run;
    expect(res.exitCode, res.stderr).toBe(0);
    // Enforced: the first AfterAgent blocked, the reason came back as a prompt, the ritual ran,
    // and the person still sees the first answer before the second.
    expect(res.stdout).toMatch(/Wrote g\.txt\.[\s\S]*Ran the ritual\./);
    const mine = ledgerEvents(p.repo).filter((e) => e.name === gemini.name);
    const stops = mine
      .filter((e) => e.kind === "turn.stopped")
      .map((e) => [e.data.verdict, e.data.enforcement]);
    expect(stops).toEqual([
      ["block", "enforced"],
      ["pass", "enforced"],
    ]);
    expect(mine.filter((e) => e.kind === "prompt.submitted").map((e) => e.data.remediation)).toEqual([
      false,
      true,
    ]);
    // `tandem task` in Gemini's shell found its session by ancestry (no session variable there).
    expect(sessions(p).find((s) => s.id === gemini.id)?.task).toBe("writing g.txt");
    expect(fake.errors).toEqual([]);
  });
});

describe("a real Gemini CLI sub-agent", () => {
  it("commits one file and leaves another uncommitted; both come back to the parent", async () => {
    const p = initProject("claude-code,gemini-cli");
    const home = join(p.base, "gemini-home");
    // Only the project is trusted: its child's worktree, elsewhere, gets that trust from `sub run`.
    writeGeminiHome(home, [p.repo]);
    const parent = agentShell();
    hook("claude-code", "pre-tool-use", claudeWrite(p.repo, "parent-session", "notes.txt"), {
      cwd: p.repo,
      env: parent,
    });
    writeFiles(p.repo, {
      ".tandem/config.jsonc": JSON.stringify({
        subagents: {
          clients: {
            "gemini-cli": { command: process.execPath, args: [entry, "--yolo", "-m", GEMINI_MODEL] },
          },
        },
      }),
    });
    g(p.repo, "add", ".tandem/config.jsonc");
    g(p.repo, "commit", "-qm", "sub-agent launch line");
    fake.script(
      [
        shell(
          "echo 'export const feature = true;' > feature.ts && git add feature.ts && git commit -qm 'Add feature'",
        ),
        { call: "write_file", args: { file_path: "draft.md", content: "draft, not committed\n" } },
        { text: "Committed the feature; the draft is uncommitted." },
      ],
      (r) => r.text.includes("build the feature"),
    );
    const env = geminiEnv(home, fake.url, { ...p.env, TANDEM_SESSION: "parent-session" });
    const args = ["sub", "run", "--client", "gemini-cli", "--name", "builder", "--timeout", "90", "--json"];
    // The parent's own shell runs it: its agent is the sub-agent's parent (decision 0045).
    const run = await runInAgentAsync(
      parent,
      process.execPath,
      [TANDEM_BIN, ...args, "--", "build the feature"],
      {
        cwd: p.repo,
        env,
      },
    );
    const report = JSON.parse(run.stdout);
    const log = join(p.repo, ".git", "tandem", "subagents", `${report.id}.log`);
    const why = `${run.stderr}\n${existsSync(log) ? readFileSync(log, "utf8") : "(no log)"}`;
    expect(run.code, why).toBe(0);
    expect(report).toMatchObject({
      name: "builder",
      childExitCode: 0,
      capture: { commitCount: 1, hadUncommittedChanges: true, uncaptured: [] },
    });
    const apply = tandem(["sub", "apply", "builder"], { cwd: p.repo, env, inside: parent });
    expect(apply.code, apply.stderr).toBe(0);
    expect(g(p.repo, "log", "--format=%s", "-1").trim()).toBe("Add feature");
    expect(p.read("feature.ts")).toBe("export const feature = true;\n");
    expect(p.read("draft.md")).toBe("draft, not committed\n");
    expect(g(p.repo, "status", "--porcelain", "--", "draft.md").trim()).toBe("?? draft.md");
    // The child's own hooks ran in its worktree and registered it as the parent's sub-agent.
    expect(sessions(p).some((s) => s.kind === "subagent" && s.client === "gemini-cli")).toBe(true);
    expect(fake.errors).toEqual([]);
  });
});
