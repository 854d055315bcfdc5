import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { patient } from "../helpers/patience.js";
import { g } from "../helpers/repo.js";
import { peerHolds } from "../tui/world.js";
import { type AnthropicFake, startAnthropicFake } from "./harness/anthropic-fake.js";
import { type ClientBins, ensureClients } from "./harness/install-clients.js";
import { type ResponsesFake, startResponsesFake } from "./harness/responses-fake.js";
import { runClaude } from "./harness/run-claude.js";
import { runCodex } from "./harness/run-codex.js";
import {
  claims,
  initProject,
  lastToolResult,
  ledgerEvents,
  newSessionId,
  type Project,
  until,
} from "./support.js";

let bins: ClientBins;
let anthropic: AnthropicFake;
let responses: ResponsesFake;
const tierStart = Date.now();

beforeAll(async () => {
  bins = await ensureClients();
  anthropic = await startAnthropicFake();
  responses = await startResponsesFake();
});

afterAll(async () => {
  await anthropic?.close();
  await responses?.close();
  console.log(`e2e: coordination tier wall time ${Date.now() - tierStart} ms`);
});

function claude(
  p: Project,
  prompt: string,
  session: { id: string; resume?: boolean },
  env: Record<string, string> = {},
) {
  return runClaude({
    bin: bins.claude,
    cwd: p.repo,
    prompt,
    baseUrl: anthropic.url,
    home: join(p.base, "claude-home"),
    env: { ...p.env, ...env },
    ...(session.resume ? { extraArgs: ["--resume", session.id] } : { sessionId: session.id }),
  });
}

function codex(p: Project, prompt: string, env: Record<string, string> = {}) {
  return runCodex({
    bin: bins.codex,
    cwd: p.repo,
    prompt,
    baseUrl: responses.url,
    codexHome: join(p.base, "codex-home"),
    bypassHookTrust: true,
    env: { ...p.env, ...env },
  });
}

describe("real Claude Code and Codex sharing one repository", () => {
  it("refuses peers' edits of a held file until its holder commits it", async () => {
    const p = initProject();
    const f = join(p.repo, "f.txt");
    const go = join(p.base, "go-commit");
    const quiet = { TANDEM_STOP_RITUAL: "off" };
    const A = newSessionId();
    const B = newSessionId();

    // A writes f, then holds its turn open until the test lets it commit.
    anthropic.script(
      [
        { tool: "Write", input: { file_path: f, content: "from A\n" } },
        {
          tool: "Bash",
          input: {
            command: `while [ ! -e '${go}' ]; do sleep 0.2; done; git add f.txt && git commit -qm 'A: f'`,
            timeout: patient(120_000),
          },
        },
        { text: "A committed f." },
      ],
      { session: A },
    );
    anthropic.script(
      [
        { tool: "Write", input: { file_path: f, content: "from B\n" } },
        (req) =>
          req.text.includes("try again")
            ? { tool: "Write", input: { file_path: f, content: "from B\n" } }
            : { text: "B was refused." },
        { text: "B wrote f." },
      ],
      { session: B },
    );

    const a = claude(p, "write f, then commit it", { id: A }, quiet);
    // The claim is taken before the write happens: wait for both.
    await until(() => claims(p).some((c) => c.path === "f.txt") && p.read("f.txt") === "from A\n");

    const b = await claude(p, "write f too", { id: B }, quiet);
    expect(b.exitCode, b.stderr).toBe(0);
    expect(p.read("f.txt")).toBe("from A\n");
    expect(anthropic.requestsFor(B)[1]!.text).toMatch(/Tandem refused this edit.*f\.txt: held by agent-/s);

    // Codex: a patch touching the held file and two free ones is refused whole; so is a redirect.
    responses.script(
      [
        {
          patch:
            "*** Begin Patch\n*** Add File: free1.txt\n+one\n*** Update File: f.txt\n@@\n-from A\n+from C\n*** Add File: free2.txt\n+two\n*** End Patch\n",
        },
        { exec: "echo overwritten > f.txt" },
        { text: "C gave up." },
      ],
      { match: (r) => r.text.includes("codex patch") },
    );
    const c = await codex(p, "codex patch", quiet);
    expect(c.exitCode, c.stderr).toBe(0);
    expect(p.read("free1.txt")).toBeNull();
    expect(p.read("free2.txt")).toBeNull();
    expect(p.read("f.txt")).toBe("from A\n");
    expect(claims(p).map((x) => x.path)).toEqual(["f.txt"]);
    const denials = ledgerEvents(p.repo).filter((e) => e.kind === "claim.denied" && e.client === "codex");
    expect(denials.map((d) => d.data.tool)).toEqual(["apply_patch", "Bash"]);

    // A commits f: post-commit releases the claim; B's retry then succeeds.
    writeFileSync(go, "");
    const done = await a;
    expect(done.exitCode, done.stderr).toBe(0);
    expect(ledgerEvents(p.repo).some((e) => e.kind === "claim.released" && e.data.reason === "commit")).toBe(
      true,
    );
    const retry = await claude(p, "try again", { id: B, resume: true }, quiet);
    expect(retry.exitCode, retry.stderr).toBe(0);
    expect(p.read("f.txt")).toBe("from B\n");
    expect(anthropic.errors).toEqual([]);
    expect(responses.errors).toEqual([]);
    // The wired command answered through the server the first hook started.
    expect(tandem(["serve", "--status"], { cwd: p.repo }).code).toBe(0);
  });

  it("through the Node path alone (TANDEM_SERVER=0) refuses a peer's edit the same way, and starts no server", async () => {
    const p = initProject("claude-code");
    peerHolds(p, "f.txt");
    const S = newSessionId();
    anthropic.script(
      [
        { tool: "Write", input: { file_path: join(p.repo, "f.txt"), content: "mine\n" } },
        { text: "Refused." },
      ],
      { session: S },
    );
    const run = await claude(p, "write f", { id: S }, { TANDEM_SERVER: "0", TANDEM_STOP_RITUAL: "off" });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(p.read("f.txt")).toBe("peer\n");
    expect(anthropic.requestsFor(S)[1]!.text).toMatch(/Tandem refused this edit.*f\.txt: held by agent-/s);
    expect(existsSync(join(p.repo, ".git", "tandem", "serve.addr"))).toBe(false);
    expect(tandem(["serve", "--status"], { cwd: p.repo }).code).toBe(1);
  });

  it("Claude: a tool turn that skipped the ritual is blocked once, runs the ritual, and ends with the box", async () => {
    const p = initProject();
    const D = newSessionId();
    anthropic.script(
      [
        { tool: "Write", input: { file_path: join(p.repo, "g.txt"), content: "g\n" } },
        (req) =>
          req.text.includes("ritual is incomplete")
            ? { tool: "Bash", input: { command: 'tandem task "writing g.txt"' } }
            : { text: "Wrote g." },
        { tool: "Bash", input: { command: "tandem status" } },
        (req) => ({ text: `Wrote g.\n\n\`\`\`\n${lastToolResult(req)}\`\`\`` }),
      ],
      { session: D },
    );
    const run = await claude(p, "write g", { id: D });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.resultText).toContain("+-- tandem status: agent-");
    const stops = ledgerEvents(p.repo)
      .filter((e) => e.kind === "turn.stopped")
      .map((e) => [e.data.verdict, e.data.enforcement]);
    expect(stops).toEqual([
      ["block", "enforced"],
      ["pass", "enforced"],
    ]);
  });

  it("Codex: a turn that skipped the ritual is not continued; its answer stays the last message", async () => {
    const p = initProject();
    responses.script([{ exec: "touch h.txt" }, { text: "Created h.txt." }], {
      match: (r) => r.text.includes("make h"),
    });
    const before = responses.requests.length;
    const run = await codex(p, "make h");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.lastMessage?.trim()).toBe("Created h.txt.");
    expect(responses.requests.length - before).toBe(2);
    const stops = ledgerEvents(p.repo)
      .filter((e) => e.kind === "turn.stopped")
      .map((e) => e.data);
    expect(stops).toEqual([expect.objectContaining({ verdict: "block", enforcement: "observe_only" })]);
  });
});

describe("the end-turn check from a real agent's shell", () => {
  it("Claude commits and pushes, then `tandem status --end-turn` passes inside its own Bash tool", async () => {
    const p = initProject("claude-code");
    const remote = join(p.base, "origin.git");
    g(p.base, "init", "-q", "--bare", "-b", "main", remote);
    g(p.repo, "remote", "add", "origin", remote);
    g(p.repo, "push", "-q", "-u", "origin", "main");
    const E = newSessionId();
    anthropic.script(
      [
        { tool: "Write", input: { file_path: join(p.repo, "e.txt"), content: "e\n" } },
        { tool: "Bash", input: { command: "tandem status --end-turn" } },
        { tool: "Bash", input: { command: "git add e.txt && git commit -qm 'Add e' && git push -q" } },
        { tool: "Bash", input: { command: 'tandem task "adding e.txt"' } },
        { tool: "Bash", input: { command: "tandem status --end-turn" } },
        (req) => ({ text: `Added e.txt.\n\n\`\`\`\n${lastToolResult(req)}\`\`\`` }),
      ],
      { session: E },
    );
    const run = await claude(p, "add e.txt and publish it", { id: E });
    expect(run.exitCode, run.stderr).toBe(0);
    const results = anthropic.requestsFor(E).map((r) => lastToolResult(r));
    // Before the push the check refuses, naming the dirty file; after it, it passes.
    expect(results[2]).toMatch(/end-turn check failed.*e\.txt/s);
    expect(run.resultText).toContain("end-turn check passed");
    const checks = ledgerEvents(p.repo)
      .filter((e) => e.kind === "status.checked")
      .map((e) => e.data.end_turn);
    expect(checks).toEqual([true]);
  });
});
