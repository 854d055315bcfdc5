/**
 * Issue 37 item 5: every key of `.tandem/config.jsonc` an agent's command changes is put back at the
 * next hook, and the change is recorded so the person is told (doctor, watch) and agents are told in
 * their next answer (decision 0070). A change that lands while no agent's tool call is open is a
 * person's edit, and stays. Real hooks, real processes, a repository wired by the real `init`.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PIN } from "../helpers/cli.js";
import { claudeBash, fakeAgent, ledger } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";
import { initRepo, tempDir } from "../helpers/repo.js";

const CONFIG = ".tandem/config.jsonc";

interface World {
  repo: string;
  a: Record<string, string>;
  b: Record<string, string>;
}

async function world(): Promise<World> {
  const repo = initRepo(join(tempDir(), "repo"));
  const init = await cli(["init", ...PIN, "--clients", "claude-code"], { cwd: repo });
  expect(init.code, init.stderr).toBe(0);
  const w = { repo, a: fakeAgent(), b: fakeAgent() };
  await prompt(w, "A");
  await prompt(w, "B");
  return w;
}

async function prompt(w: World, who: "A" | "B"): Promise<string> {
  const payload = { session_id: who, cwd: w.repo, hook_event_name: "UserPromptSubmit", prompt: "go" };
  const r = await hook("claude-code", "user-prompt-submit", payload, {
    cwd: w.repo,
    env: who === "A" ? w.a : w.b,
  });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

/**
 * B's shell command through its real pre-tool hook, run for real; its post-tool hook only when `post`.
 * `now`: the hooks' clock, when the call is to have ended well before what follows it.
 */
async function bRuns(w: World, command: string, post: boolean, now?: number): Promise<void> {
  const payload = claudeBash(w.repo, "B", command);
  const opts = { cwd: w.repo, env: w.b, ...(now === undefined ? {} : { now }) };
  await hook("claude-code", "pre-tool-use", payload, opts);
  execFileSync("bash", ["-c", command], { cwd: w.repo, env: { ...process.env, ...w.b }, stdio: "ignore" });
  if (post) await hook("claude-code", "post-tool-use", { ...payload, hook_event_name: "PostToolUse" }, opts);
}

const config = (w: World) => readFileSync(join(w.repo, CONFIG), "utf8");

/** An interpreter's write, which no shell reader names as the config: only the heal sees it. */
const plant = (key: string) =>
  `python3 -c ${JSON.stringify(
    `p='${CONFIG}'; s=open(p).read(); open(p,'w').write(s.replace('"init":', '${key} "init":', 1))`,
  )}`;

const restored = (w: World) =>
  ledger(w.repo)
    .events.filter((e) => e.kind === "wiring.restored")
    .map((e) => e.data as { file: string; changes: string[]; lastCommandBy: string | null });

const LAND = `"land": {"check": "touch planted"},`;

describe("the project config as an agent's command left it", () => {
  it("puts back a key an agent's command added, at the next hook of any session, and tells", async () => {
    const w = await world();
    const before = config(w);
    await bRuns(w, plant(LAND), false);
    expect(config(w)).toContain("touch planted");
    const told = await prompt(w, "A");
    expect(config(w)).toBe(before);
    const [event, ...more] = restored(w);
    expect(more).toEqual([]);
    expect(event!.file).toBe(join(w.repo, CONFIG));
    expect(event!.lastCommandBy).not.toBeNull();
    expect(event!.changes.join(" ")).toMatch(
      /tool call ran: the project's settings are a person's to change/,
    );
    expect(told).toContain("config.jsonc");
  });

  it("puts it back at the command's own post-tool hook, and again when the agent retries", async () => {
    const w = await world();
    const before = config(w);
    for (let i = 0; i < 4; i++) {
      await bRuns(w, plant(`"land": {"check": "touch planted-${i}"},`), true);
      expect(config(w)).toBe(before);
    }
    expect(restored(w)).toHaveLength(4);
  });

  it("keeps a person's edit made while no agent's tool call is open", async () => {
    const w = await world();
    // B's call ended a second ago. Files take their change time from the kernel's coarse clock,
    // a tick behind Date.now(), so an edit right after a call just ended could date inside it.
    await bRuns(w, "true", true, Date.now() - 1_000);
    const edited = config(w).replace('"init":', `${LAND} "init":`);
    writeFileSync(join(w.repo, CONFIG), edited);
    await prompt(w, "A");
    expect(config(w)).toBe(edited);
    expect(restored(w)).toEqual([]);
  });

  it("tells the person in doctor what was put back and whose command changed it", async () => {
    const w = await world();
    await bRuns(w, plant(LAND), false);
    await prompt(w, "A");
    const doctor = await cli(["doctor"], { cwd: w.repo });
    expect(doctor.stdout + doctor.stderr).toMatch(/config\.jsonc \(changed while \S+'s tool call ran/);
  });
});
