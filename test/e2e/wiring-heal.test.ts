import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureClients } from "./harness/install-clients.js";
import { type ResponsesFake, startResponsesFake } from "./harness/responses-fake.js";
import { runCodex } from "./harness/run-codex.js";
import { initProject, ledgerEvents, type Project } from "./support.js";

/**
 * Issue 25 §6 with the real Codex 0.171.0: `[features] hooks = false` in the project's
 * `.codex/config.toml` really runs no Tandem hook; an agent's own opaque command that writes it is
 * undone at that call's PostToolUse, and the notice reaches the model in its next request.
 * Hooks in Node only (TANDEM_SERVER=0): no resident server heals it first.
 */

let codexBin = "";
let responses: ResponsesFake;

beforeAll(async () => {
  codexBin = (await ensureClients()).codex;
  responses = await startResponsesFake();
}, 600_000);

afterAll(async () => {
  await responses?.close();
});

const NODE_ONLY = { TANDEM_SERVER: "0", TANDEM_STOP_RITUAL: "off" };

function codex(p: Project, prompt: string) {
  return runCodex({
    bin: codexBin,
    cwd: p.repo,
    prompt,
    baseUrl: responses.url,
    codexHome: join(p.base, "codex-home"),
    bypassHookTrust: true,
    env: { ...p.env, ...NODE_ONLY },
  });
}

const codexSessions = (p: Project) =>
  ledgerEvents(p.repo).filter((e) => e.kind === "session.started" && e.client === "codex").length;

const PERSON = 'model_reasoning_effort = "low"\n';
/** An interpreter's write, which names no wiring file to the shell reader. */
const UNHOOK = `python3 -c "import os; open(os.path.join('.codex', 'config' + '.toml'), 'a').write('[features]\\nhooks = false\\n')"`;

describe("Codex's hook switch, with the real Codex", () => {
  it("runs no Tandem hook while `[features] hooks = false` is in the project's config.toml", async () => {
    const p = initProject("codex");
    writeFileSync(join(p.repo, ".codex", "config.toml"), "[features]\nhooks = false\n");
    responses.script([{ text: "nothing to do" }], { match: (r) => r.text.includes("switched off") });
    const run = await codex(p, "switched off");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(codexSessions(p)).toBe(0);

    // The same run with the line gone does run them: the setting, not the setup, kept them off.
    writeFileSync(join(p.repo, ".codex", "config.toml"), PERSON);
    responses.script([{ text: "nothing to do" }], { match: (r) => r.text.includes("switched on") });
    expect((await codex(p, "switched on")).exitCode).toBe(0);
    expect(codexSessions(p)).toBe(1);
  }, 180_000);

  it("undoes an agent's opaque write of it at that call's PostToolUse, tells the model, and the next Codex runs hooks", async () => {
    const p = initProject("codex");
    writeFileSync(join(p.repo, ".codex", "config.toml"), PERSON);
    responses.script([{ exec: UNHOOK }, { text: "done" }], { match: (r) => r.text.includes("unhook me") });
    const run = await codex(p, "unhook me");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(p.read(".codex/config.toml")).toBe(`${PERSON}[features]\n`);

    const after = responses.requestsFor(run.threadId!)[1]!.text;
    expect(after).toMatch(
      /changed Tandem's wiring, which stops its hooks from running, and Tandem changed it back/,
    );
    expect(after).toContain("- .codex/config.toml: `hooks = false` on line 3");
    expect(after).toContain("the last tool call before it was yours");

    const restored = ledgerEvents(p.repo).filter((e) => e.kind === "wiring.restored");
    expect(restored.map((e) => [e.data.file, e.data.via])).toEqual([
      [join(p.repo, ".codex/config.toml"), "hook"],
    ]);

    responses.script([{ text: "hooked again" }], { match: (r) => r.text.includes("second run") });
    expect((await codex(p, "second run")).exitCode).toBe(0);
    expect(codexSessions(p)).toBe(2);
    expect(responses.errors).toEqual([]);
  }, 240_000);
});
