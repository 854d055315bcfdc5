import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentShell, runInAgentAsync } from "../helpers/agent-shell.js";
import { TANDEM_BIN, tandem } from "../helpers/cli.js";
import { claudeWrite, hook } from "../helpers/hooks.js";
import { g } from "../helpers/repo.js";
import { type CopilotFake, type CopilotReply, startCopilotFake } from "./harness/copilot-fake.js";
import { ensureCline } from "./harness/install-clients.js";
import { writeClineHome } from "./harness/run-cline.js";
import { clientEnv } from "./harness/spawn.js";
import { initProject } from "./support.js";

let bin: string;
let fake: CopilotFake;
const tierStart = Date.now();

beforeAll(async () => {
  bin = await ensureCline();
  fake = await startCopilotFake();
});

afterAll(async () => {
  await fake?.close();
  console.log(`e2e: Cline sub-agent tier wall time ${Date.now() - tierStart} ms`);
});

const shell = (command: string): CopilotReply => ({ call: "run_commands", args: { commands: [command] } });

describe("tandem sub run --client cline with the real Cline CLI", () => {
  it("runs the built-in launch line in the sub-agent's worktree; its commit and its draft are applied back once", async () => {
    const p = initProject("claude-code,cline");
    // The parent: a live Claude Code session of the project.
    const parent = agentShell();
    hook("claude-code", "pre-tool-use", claudeWrite(p.repo, "parent-session", "notes.txt"), {
      cwd: p.repo,
      env: parent,
    });
    const home = join(p.base, "cline-home");
    writeClineHome(home, fake.url);
    fake.script(
      [
        shell(
          "printf 'export const feature = true;\\n' > feature.ts && git add feature.ts && git commit -qm 'Add feature'",
        ),
        shell("echo 'draft, not committed' > draft.md"),
        { text: "Committed the feature; the draft is uncommitted." },
      ],
      (r) => r.text.includes("build-the-feature"),
    );
    // The built-in line (`cline …`) from PATH; no backend variable here: the launch line sets it.
    const env = clientEnv({
      ...p.env,
      HOME: home,
      PATH: `${dirname(bin)}:${p.env.PATH ?? process.env.PATH}`,
      CLINE_NO_AUTO_UPDATE: "1",
      CLINE_SESSION_BACKEND_MODE: undefined,
      TANDEM_SESSION: "parent-session",
    });
    // The parent's own shell runs it: its agent is the sub-agent's parent (decision 0045).
    const run = await runInAgentAsync(
      parent,
      process.execPath,
      [
        TANDEM_BIN,
        "sub",
        "run",
        "--client",
        "cline",
        "--name",
        "builder",
        "--timeout",
        "150",
        "--json",
      ].concat(["--", "build-the-feature: add feature.ts and a draft"]),
      { cwd: p.repo, env },
    );
    const report = JSON.parse(run.stdout);
    const log = join(p.repo, ".git", "tandem", "subagents", `${report.id}.log`);
    const logText = existsSync(log) ? readFileSync(log, "utf8") : "(no log)";
    expect(run.code, `${run.stderr}\n${logText}`).toBe(0);
    // The child ran in its own worktree, not the parent's checkout.
    expect(p.read("feature.ts")).toBeNull();
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
    // Applied exactly once: applying again brings nothing more.
    const again = tandem(["sub", "apply", "builder"], { cwd: p.repo, env, inside: parent });
    expect(again.code, again.stderr).toBe(0);
    expect(
      g(p.repo, "log", "--format=%s")
        .trim()
        .split("\n")
        .filter((s) => s === "Add feature"),
    ).toHaveLength(1);
    expect(p.read("draft.md")).toBe("draft, not committed\n");
    // The child's hooks ran in the child's own process and registered it as the parent's sub-agent.
    const sessions = JSON.parse(tandem(["sessions", "--all", "--json"], { cwd: p.repo }).stdout) as {
      kind: string;
      client: string;
    }[];
    expect(sessions).toContainEqual(expect.objectContaining({ kind: "subagent", client: "cline" }));
    expect(fake.errors).toEqual([]);
  });
});
