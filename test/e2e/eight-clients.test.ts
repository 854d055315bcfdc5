import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_NAMES, CLIENTS } from "../../src/clients/index.js";
import {
  type ChatRequest,
  type CopilotFake,
  type CopilotReply,
  startCopilotFake,
} from "./harness/copilot-fake.js";
import { type Gate, gate } from "./harness/gate.js";
import { ensureCline, ensureOpencode, ensureQwenCode } from "./harness/install-clients.js";
import { runCline } from "./harness/run-cline.js";
import { runOpencode } from "./harness/run-opencode.js";
import { runQwen } from "./harness/run-qwen.js";
import { initProject, ledgerEvents, type Project, until } from "./support.js";

/**
 * One repository wired by `tandem init` for every registered client, and the new clients refusing
 * each other there with the real binaries: Qwen Code holds a file with its turn open while Cline CLI
 * and opencode try to edit it and to redirect into it, then Qwen is refused the file Cline left. Each client's
 * own scenarios (ritual, sub-agent, a Claude peer) are in its tier: qwen-code, cline, opencode.
 */

let bins: { qwen: string; cline: string; opencode: string };
let fake: CopilotFake;

beforeAll(async () => {
  const [qwen, cline, opencode] = await Promise.all([ensureQwenCode(), ensureCline(), ensureOpencode()]);
  bins = { qwen, cline, opencode };
  // All three speak streaming Chat Completions; one fake serves each by its own script.
  fake = await startCopilotFake();
});

afterAll(async () => {
  await fake?.close();
});

const pending: { gates: Gate[]; runs: Promise<unknown>[] } = { gates: [], runs: [] };

afterEach(async () => {
  for (const g of pending.gates.splice(0)) g.open();
  await Promise.allSettled(pending.runs.splice(0));
});

const said = (text: string) => (r: ChatRequest) => r.text.includes(text);
const qwenShell = (command: string): CopilotReply => ({
  call: "run_shell_command",
  args: { command, description: "step", is_background: false },
});
const clineShell = (command: string): CopilotReply => ({
  call: "run_commands",
  args: { commands: [command] },
});

const holderOf = (p: Project, path: string) =>
  ledgerEvents(p.repo).find((e) => e.kind === "claim.acquired" && e.data.path === path)?.name;

describe("every registered client wired in one repository", () => {
  it("writes each client's wiring side by side, and Qwen Code, Cline CLI and opencode refuse each other's held files", async () => {
    const p = initProject(CLIENT_NAMES.join(","));
    for (const c of Object.values(CLIENTS))
      expect(existsSync(join(p.repo, c.settingsFile)), c.name).toBe(true);

    // 1. Qwen writes q.txt; its next reply waits on the gate, so its turn and its claim stay open.
    const qwenGo = gate();
    pending.gates.push(qwenGo);
    let qwenRefused = "";
    fake.script(
      [
        { call: "write_file", args: { file_path: join(p.repo, "q.txt"), content: "from qwen\n" } },
        async () => {
          await qwenGo.opened;
          return qwenShell("echo qwen > c.txt");
        },
        (r) => {
          qwenRefused = r.lastToolResult;
          return said("end-of-turn ritual is incomplete")(r)
            ? qwenShell('tandem task "eight clients" && tandem status')
            : { text: "Wrote q.txt; c.txt is Cline's." };
        },
        { text: "Ran the ritual." },
      ],
      said("qwen-eight"),
    );
    const qwenRun = runQwen({
      entry: bins.qwen,
      cwd: p.repo,
      prompt: "qwen-eight: write q.txt",
      baseUrl: fake.url,
      home: join(p.base, "qwen-home"),
      env: p.env,
    });
    pending.runs.push(qwenRun);
    await until(() => fake.requests.some((r) => said("qwen-eight")(r) && r.toolResults === 1), 150_000);
    expect(p.read("q.txt")).toBe("from qwen\n");
    const qwenName = holderOf(p, "q.txt")!;
    expect(qwenName).toBeDefined();
    const heldByQwen = new RegExp(`q\\.txt: held by ${qwenName} \\(qwen-code`);

    // 2. Cline, meanwhile: its edit of q.txt and its redirect into it are refused with the reason;
    // its own c.txt is written.
    fake.script(
      [
        {
          call: "editor",
          args: { path: join(p.repo, "q.txt"), old_text: "from qwen", new_text: "from cline" },
        },
        clineShell("echo cline > q.txt"),
        { call: "editor", args: { path: join(p.repo, "c.txt"), new_text: "from cline\n" } },
        { text: "Wrote c.txt; q.txt is Qwen's." },
      ],
      said("cline-eight"),
    );
    const clineDone = await runCline({
      bin: bins.cline,
      cwd: p.repo,
      prompt: "cline-eight: write c.txt",
      baseUrl: fake.url,
      home: join(p.base, "cline-home"),
      env: p.env,
    });
    expect(clineDone.exitCode, clineDone.stderr.slice(-2000)).toBe(0);
    const cline = fake.requests.filter(said("cline-eight"));
    const afterEdit = cline.find((r) => r.toolResults === 1)!;
    const afterRedirect = cline.find((r) => r.toolResults === 2)!;
    // Tandem's Cline plugin skips a refused call: the reason is the call's result (decision 0066).
    expect(afterEdit.lastToolResult).toMatch(heldByQwen);
    expect(afterRedirect.lastToolResult).toMatch(heldByQwen);
    expect(p.read("q.txt")).toBe("from qwen\n");
    expect(p.read("c.txt")).toBe("from cline\n");
    const clineName = holderOf(p, "c.txt")!;
    expect(clineName).toBeDefined();

    // 2b. opencode, meanwhile: its write of q.txt and its redirect into it are refused; the model
    // reads the reason as each tool's result.
    fake.script(
      [
        { call: "write", args: { filePath: "q.txt", content: "from opencode\n" } },
        { call: "bash", args: { command: "echo opencode > q.txt", description: "redirect" } },
        { text: "q.txt is Qwen's." },
      ],
      said("opencode-eight"),
    );
    const opencodeDone = await runOpencode({
      bin: bins.opencode,
      cwd: p.repo,
      prompt: "opencode-eight: write q.txt",
      baseUrl: fake.url,
      home: join(p.base, "opencode-home"),
      env: p.env,
      fake,
    });
    expect(opencodeDone.exitCode, opencodeDone.stderr.slice(-2000)).toBe(0);
    const opencode = fake.requests.filter(said("opencode-eight"));
    expect(opencode.find((r) => r.toolResults === 1)?.lastToolResult).toMatch(heldByQwen);
    expect(opencode.find((r) => r.toolResults === 2)?.lastToolResult).toMatch(heldByQwen);
    expect(p.read("q.txt")).toBe("from qwen\n");

    // 3. Qwen's turn goes on: its redirect into Cline's c.txt is refused (Cline's run has ended, so
    // c.txt is its left work, or still its claim), and c.txt keeps Cline's bytes.
    qwenGo.open();
    const qwenDone = await qwenRun;
    expect(qwenDone.exitCode, qwenDone.stderr.slice(-2000)).toBe(0);
    expect(qwenRefused).toMatch(new RegExp(`c\\.txt.*${clineName}`, "s"));
    expect(p.read("c.txt")).toBe("from cline\n");
    const denials = ledgerEvents(p.repo).filter((e) => e.kind === "claim.denied");
    expect(denials.map((e) => e.client).sort()).toEqual([
      "cline",
      "cline",
      "opencode",
      "opencode",
      "qwen-code",
    ]);
    expect(fake.errors).toEqual([]);
  });
});
