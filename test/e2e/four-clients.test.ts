import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type AnthropicFake, startAnthropicFake } from "./harness/anthropic-fake.js";
import { type ChatRequest, type CopilotFake, startCopilotFake } from "./harness/copilot-fake.js";
import { type Gate, gate } from "./harness/gate.js";
import { type GeminiFake, type GeminiRequest, startGeminiFake } from "./harness/gemini-fake.js";
import { type ClientBins, ensureClients, ensureCopilot, ensureGemini } from "./harness/install-clients.js";
import { type ResponsesFake, startResponsesFake } from "./harness/responses-fake.js";
import { runClaude } from "./harness/run-claude.js";
import { runCodex } from "./harness/run-codex.js";
import { runCopilot } from "./harness/run-copilot.js";
import { runGemini, writeGeminiHome } from "./harness/run-gemini.js";
import { initProject, ledgerEvents, newSessionId, type Project, until } from "./support.js";

/**
 * One repository wired by `tandem init` for all four clients, driven with the real binaries: the
 * wiring of each coexists with the others', and a turn held open in one client refuses the others.
 */

let bins: ClientBins & { gemini: string; copilot: string };
let anthropic: AnthropicFake;
let responses: ResponsesFake;
let gemini: GeminiFake;
let copilot: CopilotFake;
const tierStart = Date.now();

beforeAll(async () => {
  const [base, geminiEntry, copilotBin] = await Promise.all([
    ensureClients(),
    ensureGemini(),
    ensureCopilot(),
  ]);
  bins = { ...base, gemini: geminiEntry, copilot: copilotBin };
  [anthropic, responses, gemini, copilot] = await Promise.all([
    startAnthropicFake(),
    startResponsesFake(),
    startGeminiFake(),
    startCopilotFake(),
  ]);
});

afterAll(async () => {
  await Promise.all([anthropic?.close(), responses?.close(), gemini?.close(), copilot?.close()]);
  console.log(`e2e: four-clients tier wall time ${Date.now() - tierStart} ms`);
});

/** Turns held open and runs not yet awaited: a failed assert must not leave a client waiting. */
const pending: { gates: Gate[]; runs: Promise<unknown>[] } = { gates: [], runs: [] };

afterEach(async () => {
  for (const g of pending.gates.splice(0)) g.open();
  await Promise.allSettled(pending.runs.splice(0));
});

/** A gate opened after the test at the latest. */
function heldTurn(): Gate {
  const g = gate();
  pending.gates.push(g);
  return g;
}

/** A run awaited after the test at the latest. */
function launched<T>(run: Promise<T>): Promise<T> {
  pending.runs.push(run);
  return run;
}

/** Claude Code and Codex each write a file of their own; their ritual is off (not under test here). */
async function claudeAndCodexWrite(p: Project): Promise<void> {
  const quiet = { ...p.env, TANDEM_STOP_RITUAL: "off" };
  const session = newSessionId();
  anthropic.script(
    [
      { tool: "Write", input: { file_path: join(p.repo, "claude.txt"), content: "claude\n" } },
      { text: "ok" },
    ],
    { session },
  );
  responses.script([{ exec: "echo codex > codex.txt" }, { text: "ok" }], {
    match: (r) => r.text.includes("codex-run"),
  });
  const [claude, codex] = await Promise.all([
    runClaude({
      bin: bins.claude,
      cwd: p.repo,
      prompt: "claude-run",
      baseUrl: anthropic.url,
      home: join(p.base, "claude-home"),
      env: quiet,
      sessionId: session,
    }),
    runCodex({
      bin: bins.codex,
      cwd: p.repo,
      prompt: "codex-run",
      baseUrl: responses.url,
      codexHome: join(p.base, "codex-home"),
      bypassHookTrust: true,
      env: quiet,
    }),
  ]);
  expect(claude.exitCode, claude.stderr).toBe(0);
  expect(codex.exitCode, codex.stderr).toBe(0);
}

const RITUAL = 'tandem task "four clients" && tandem status';
const geminiShell = (command: string) => ({
  call: "run_shell_command",
  args: { command, description: "step" },
});
const copilotBash = (command: string) => ({ call: "bash", args: { command, description: "step" } });
const geminiRemediation = (r: GeminiRequest) =>
  r.lastText.startsWith("Tandem: this turn used tools, but the end-of-turn ritual is incomplete");
const copilotRemediation = (r: ChatRequest) => r.text.includes("[tandem:stop-remediation");
const said = (text: string) => (r: ChatRequest) => r.text.includes(text);

function runCopilotIn(p: Project, prompt: string, model?: string) {
  const home = join(p.base, "copilot-home");
  return runCopilot({
    bin: bins.copilot,
    cwd: p.repo,
    prompt,
    baseUrl: copilot.url,
    home,
    env: p.env,
    ...(model ? { model } : {}),
  });
}

/** [verdict, enforcement] of each end of turn `name` recorded, and whether each prompt was a repair. */
function ritualOf(p: Project, name: string) {
  const mine = ledgerEvents(p.repo).filter((e) => e.name === name);
  return {
    stops: mine.filter((e) => e.kind === "turn.stopped").map((e) => [e.data.verdict, e.data.enforcement]),
    repairs: mine.filter((e) => e.kind === "prompt.submitted").map((e) => e.data.remediation),
  };
}

const holderOf = (p: Project, path: string) =>
  ledgerEvents(p.repo).find((e) => e.kind === "claim.acquired" && e.data.path === path)?.name;

describe("Claude Code, Codex, Gemini CLI and Copilot CLI in one repository", () => {
  it("coexist, refuse each other's held files while a turn is open, and each keeps its ritual", async () => {
    const p = initProject("claude-code,codex,gemini-cli,copilot-cli");
    const geminiHome = join(p.base, "gemini-home");
    writeGeminiHome(geminiHome, [p.repo]);
    const [gFile, cFile] = [join(p.repo, "g.txt"), join(p.repo, "c.txt")];

    // 1. Claude Code and Codex write their own files: the four clients' wiring coexists.
    await claudeAndCodexWrite(p);
    expect([p.read("claude.txt"), p.read("codex.txt")]).toEqual(["claude\n", "codex\n"]);
    const claimed = ledgerEvents(p.repo).filter((e) => e.kind === "claim.acquired");
    expect(claimed).toContainEqual(
      expect.objectContaining({
        client: "claude-code",
        data: expect.objectContaining({ path: "claude.txt" }),
      }),
    );

    // 2. Gemini writes g.txt; its next reply waits for the gate, so its turn stays open.
    const geminiGo = heldTurn();
    gemini.script(
      [
        { call: "write_file", args: { file_path: gFile, content: "from gemini\n" } },
        async () => {
          await geminiGo.opened;
          return geminiShell("echo x > c.txt");
        },
        (r) => (geminiRemediation(r) ? geminiShell(RITUAL) : { text: "Wrote g.txt." }),
        { text: "Ran the ritual." },
      ],
      (r) => r.text.includes("gemini-run"),
    );
    const geminiRun = launched(
      runGemini({
        entry: bins.gemini,
        cwd: p.repo,
        prompt: "gemini-run: write g.txt",
        baseUrl: gemini.url,
        home: geminiHome,
        env: p.env,
      }),
    );
    await until(() =>
      gemini.requests.some((r) => r.text.includes("gemini-run") && r.functionResponses === 1),
    );
    expect(p.read("g.txt")).toBe("from gemini\n");
    const geminiName = holderOf(p, "g.txt")!;
    expect(geminiName).toBeDefined();
    const heldByGemini = new RegExp(`g\\.txt: held by ${geminiName} \\(gemini-cli`);

    // 3a. Copilot gpt-5: apply_patch over g.txt and two free files is refused whole.
    const patch = ["a.txt", "g.txt", "b.txt"].map((f) => `*** Add File: ${join(p.repo, f)}\n+patched`);
    let patchDenial = "";
    copilot.script(
      [
        { patch: `*** Begin Patch\n${patch.join("\n")}\n*** End Patch\n` },
        (r) => {
          patchDenial ||= r.lastToolResult;
          return copilotRemediation(r) ? copilotBash(RITUAL) : { text: "The patch was refused." };
        },
        { text: "Ran the ritual." },
      ],
      said("copilot-patch-run"),
    );
    const patchRun = await runCopilotIn(p, "copilot-patch-run", "gpt-5.4");
    expect(patchRun.exitCode, patchRun.stderr.slice(-2000)).toBe(0);
    expect(
      copilot.requests.some((r) => said("copilot-patch-run")(r) && r.tools.includes("apply_patch")),
    ).toBe(true);
    expect(patchDenial).toMatch(/^Denied by preToolUse hook: /);
    expect(patchDenial).toMatch(heldByGemini);
    expect([p.read("a.txt"), p.read("b.txt"), p.read("g.txt")]).toEqual([null, null, "from gemini\n"]);

    // 3b + 4. Copilot's create of g.txt is refused; it writes c.txt and its turn stays open.
    const copilotGo = heldTurn();
    let createDenial = "";
    copilot.script(
      [
        { call: "create", args: { path: gFile, file_text: "from copilot\n" } },
        (r) => {
          createDenial = r.lastToolResult;
          return { call: "create", args: { path: cFile, file_text: "from copilot\n" } };
        },
        async (r) => {
          await copilotGo.opened;
          return copilotRemediation(r) ? copilotBash(RITUAL) : { text: "Wrote c.txt." };
        },
        { text: "Ran the ritual." },
      ],
      said("copilot-create-run"),
    );
    const createRun = launched(runCopilotIn(p, "copilot-create-run"));
    await until(() => copilot.requests.some((r) => said("copilot-create-run")(r) && r.toolResults === 2));
    expect(createDenial).toMatch(/^Denied by preToolUse hook: Tandem refused this edit/);
    expect(createDenial).toMatch(heldByGemini);
    expect(p.read("g.txt")).toBe("from gemini\n");
    expect(p.read("c.txt")).toBe("from copilot\n");
    const copilotName = holderOf(p, "c.txt")!;
    expect(copilotName).toBeDefined();

    // Gemini's next reply, a shell redirect into Copilot's c.txt, is refused with the reason.
    geminiGo.open();
    const geminiDone = await geminiRun;
    expect(geminiDone.exitCode, geminiDone.stderr.slice(-2000)).toBe(0);
    expect(p.read("c.txt")).toBe("from copilot\n");
    const redirect = gemini.requests.find((r) => r.text.includes("gemini-run") && r.functionResponses === 2)!;
    expect(redirect.lastResult).toMatch(/^Tool execution blocked: /);
    expect(redirect.lastResult).toMatch(new RegExp(`c\\.txt: held by ${copilotName} \\(copilot-cli`));

    // 5. Copilot's turn ends too. Both enforce the ritual with our cap: blocked once, repaired, passed.
    copilotGo.open();
    const createDone = await createRun;
    expect(createDone.exitCode, createDone.stderr.slice(-2000)).toBe(0);
    const enforcedOnce = {
      stops: [
        ["block", "enforced"],
        ["pass", "enforced"],
      ],
      repairs: [false, true],
    };
    expect(ritualOf(p, geminiName)).toEqual(enforcedOnce);
    expect(ritualOf(p, copilotName)).toEqual(enforcedOnce);

    // Copilot also ran Claude Code's hook file; those payloads registered no Claude Code session.
    const started = ledgerEvents(p.repo).filter((e) => e.kind === "session.started");
    expect(started.map((e) => e.client).sort()).toEqual([
      "claude-code",
      "codex",
      "copilot-cli",
      "copilot-cli",
      "gemini-cli",
    ]);
    for (const fake of [anthropic, responses, gemini, copilot]) expect(fake.errors).toEqual([]);
  });
});
