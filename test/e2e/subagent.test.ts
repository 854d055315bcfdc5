import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentShell, runInAgentAsync } from "../helpers/agent-shell.js";
import { TANDEM_BIN, tandem } from "../helpers/cli.js";
import { claudeWrite, hook } from "../helpers/hooks.js";
import { g, writeFiles } from "../helpers/repo.js";
import { type AnthropicFake, type MessagesRequest, startAnthropicFake } from "./harness/anthropic-fake.js";
import { type ClientBins, ensureClients } from "./harness/install-clients.js";
import { clientEnv } from "./harness/spawn.js";
import { initProject, lastToolResult } from "./support.js";

let bins: ClientBins;
let anthropic: AnthropicFake;
const tierStart = Date.now();

beforeAll(async () => {
  bins = await ensureClients();
  anthropic = await startAnthropicFake();
});

afterAll(async () => {
  await anthropic?.close();
  console.log(`e2e: sub-agent tier wall time ${Date.now() - tierStart} ms`);
});

describe("a real Claude Code sub-agent", () => {
  it("commits one file and leaves another uncommitted; both come back to the parent", async () => {
    const p = initProject("claude-code");
    // The parent is a live agent session of the project.
    const parent = agentShell();
    hook("claude-code", "pre-tool-use", claudeWrite(p.repo, "parent-session", "notes.txt"), {
      cwd: p.repo,
      env: parent,
    });
    writeFiles(p.repo, {
      ".tandem/config.jsonc": JSON.stringify({
        subagents: {
          clients: {
            "claude-code": {
              command: bins.claude,
              args: ["-p", "--permission-mode", "acceptEdits", "--allowedTools", "Bash Write Edit"],
            },
          },
        },
      }),
    });
    g(p.repo, "add", ".tandem/config.jsonc");
    g(p.repo, "commit", "-qm", "sub-agent launch line");
    // Claude needs absolute paths; the child learns where it works from its own shell.
    let dir = "";
    const here = (req: MessagesRequest) => (dir ||= lastToolResult(req).trim());
    anthropic.script(
      [
        { tool: "Bash", input: { command: "pwd" } },
        (req) => ({
          tool: "Write",
          input: { file_path: join(here(req), "feature.ts"), content: "export const feature = true;\n" },
        }),
        { tool: "Bash", input: { command: "git add feature.ts && git commit -qm 'Add feature'" } },
        () => ({
          tool: "Write",
          input: { file_path: join(dir, "draft.md"), content: "draft, not committed\n" },
        }),
        { text: "Committed the feature; the draft is uncommitted." },
      ],
      { match: (r) => r.text.includes("build the feature") },
    );
    const env = clientEnv({
      ...p.env,
      HOME: join(p.base, "claude-home"),
      ANTHROPIC_BASE_URL: anthropic.url,
      ANTHROPIC_API_KEY: "fake",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      IS_SANDBOX: "1",
      TANDEM_SESSION: "parent-session",
    });
    // Asynchronously: the fake model server answers from this very process.
    // The parent's own shell runs it: its agent is the sub-agent's parent (decision 0045).
    const run = await runInAgentAsync(
      parent,
      process.execPath,
      [
        TANDEM_BIN,
        "sub",
        "run",
        "--client",
        "claude-code",
        "--name",
        "builder",
        "--timeout",
        "90",
        "--json",
        "--",
        "build the feature",
      ],
      { cwd: p.repo, env },
    );
    const report = JSON.parse(run.stdout);
    const log = join(p.repo, ".git", "tandem", "subagents", `${report.id}.log`);
    expect(run.code, `${run.stderr}\n${existsSync(log) ? readFileSync(log, "utf8") : "(no log)"}`).toBe(0);
    expect(report).toMatchObject({
      name: "builder",
      childExitCode: 0,
      capture: { commitCount: 1, hadUncommittedChanges: true, uncaptured: [] },
    });

    const apply = tandem(["sub", "apply", "builder"], { cwd: p.repo, env, inside: parent });
    expect(apply.code, apply.stderr).toBe(0);
    expect(g(p.repo, "log", "--format=%s", "-1").trim()).toBe("Add feature");
    expect(p.read("feature.ts")).toBe("export const feature = true;\n");
    expect(g(p.repo, "status", "--porcelain", "--", "draft.md").trim()).toBe("?? draft.md");
    expect(p.read("draft.md")).toBe("draft, not committed\n");
    // The child's hooks registered it as a sub-agent of the parent.
    const sessions = JSON.parse(tandem(["sessions", "--all", "--json"], { cwd: p.repo }).stdout) as {
      kind: string;
      client: string;
    }[];
    expect(sessions.some((s) => s.kind === "subagent" && s.client === "claude-code")).toBe(true);
    expect(anthropic.errors).toEqual([]);
  });
});
