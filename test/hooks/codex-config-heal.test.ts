import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { raw } from "../../src/store/handle.js";
import { PIN } from "../helpers/cli.js";
import { claudeBash, fakeAgent, ledger } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/**
 * Issue 25 §6 without a server: `[features] hooks = false` written into `.codex/config.toml` by
 * anything but `tandem init` switches every Codex hook off; the next hook of any session takes it
 * out again, keeps the rest of the person's file, and records who and when.
 */

const CONFIG = ".codex/config.toml";
/** Without codex on PATH, init does not ask Codex's app-server about hook trust. */
const NO_CODEX = { PATH: "/usr/bin:/bin" };

interface World {
  repo: string;
  a: Record<string, string>;
  b: Record<string, string>;
}

async function world(): Promise<World> {
  const repo = initRepo(join(tempDir(), "repo"));
  const init = await cli(["init", ...PIN, "--clients", "claude-code,codex"], { cwd: repo, env: NO_CODEX });
  expect(init.code, init.stderr).toBe(0);
  const w = { repo, a: fakeAgent(), b: fakeAgent() };
  await prompt(w, "A");
  await prompt(w, "B");
  return w;
}

async function prompt(w: World, who: "A" | "B"): Promise<void> {
  const payload = { session_id: who, cwd: w.repo, hook_event_name: "UserPromptSubmit", prompt: "go" };
  const r = await hook("claude-code", "user-prompt-submit", payload, {
    cwd: w.repo,
    env: who === "A" ? w.a : w.b,
  });
  expect(r.code, r.stderr).toBe(0);
}

/** B's command inside B's agent process, after B's real pre-tool hook; no hook runs after it. */
async function bRuns(w: World, command: string): Promise<void> {
  await hook("claude-code", "pre-tool-use", claudeBash(w.repo, "B", command), { cwd: w.repo, env: w.b });
  execFileSync("bash", ["-c", command], { cwd: w.repo, env: { ...process.env, ...w.b }, stdio: "ignore" });
}

const python = (code: string) => `python3 -c ${JSON.stringify(code)}`;
const config = (w: World) => readFileSync(join(w.repo, CONFIG), "utf8");

interface Restored {
  file: string;
  changes: string[];
  foundBy: string | null;
  via: string;
  lastCommandBy: string | null;
  changedAt: number | null;
}

const restored = (w: World) =>
  ledger(w.repo)
    .events.filter((e) => e.kind === "wiring.restored")
    .map((e) => e.data as Restored);

function sessionId(w: World, native: string): string {
  const db = openDb(join(w.repo, ".git", "tandem"));
  try {
    return (raw(db).prepare("SELECT id FROM sessions WHERE native_id = ?").get(native) as { id: string }).id;
  } finally {
    db.close();
  }
}

const PERSON = 'model = "o3"\n\n[features]\ngoals = false\n';

describe("Codex's config.toml heals at the next hook", () => {
  it("keeps the person's own edit untouched, then takes out only the line that switches Codex's hooks off", async () => {
    const w = await world();
    writeFileSync(join(w.repo, CONFIG), PERSON);
    await prompt(w, "A");
    expect(config(w)).toBe(PERSON);
    expect(restored(w)).toEqual([]);

    const before = Date.now();
    await bRuns(w, python(`open('${CONFIG}','a').write('hooks = false\\n')`));
    expect(config(w)).toBe(`${PERSON}hooks = false\n`);
    await prompt(w, "A");
    expect(config(w)).toBe(PERSON);
    const [event, ...more] = restored(w);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      file: join(w.repo, CONFIG),
      via: "hook",
      foundBy: sessionId(w, "A"),
      lastCommandBy: sessionId(w, "B"),
    });
    expect(event!.changedAt).toBeGreaterThanOrEqual(before - 2_000);
    expect(event!.changes).toEqual([expect.stringMatching(/^`hooks = false` on line 5 .*removed it$/)]);
  });

  it.each([
    [
      "a config.toml written whole by a script",
      `${python(`open('${CONFIG}','w').write('[features]\\ncodex_hooks = false\\n')`)}`,
      "[features]\n",
    ],
    [
      "a dotted key appended through a link",
      `ln -s .codex c && echo 'features.hooks = false' >> c/config.toml`,
      "",
    ],
  ])("switches the hooks back on after %s, a file init never saw", async (_n, command, healed) => {
    const w = await world();
    expect(existsSync(join(w.repo, CONFIG))).toBe(false);
    await bRuns(w, command);
    await prompt(w, "B");
    expect(config(w)).toBe(healed);
    expect(restored(w)).toEqual([expect.objectContaining({ file: join(w.repo, CONFIG), via: "hook" })]);
  });

  it("never puts back a config.toml the person removed", async () => {
    const w = await world();
    writeFileSync(join(w.repo, CONFIG), PERSON);
    await prompt(w, "A");
    rmSync(join(w.repo, CONFIG));
    await prompt(w, "A");
    expect(existsSync(join(w.repo, CONFIG))).toBe(false);
    expect(restored(w)).toEqual([]);
  });

  it("leaves it to deinit: after `deinit --clients codex` the setting stays", async () => {
    const w = await world();
    const de = await cli(["deinit", "--clients", "codex"], { cwd: w.repo, env: NO_CODEX });
    expect(de.code, de.stderr).toBe(0);
    mkdirSync(join(w.repo, ".codex"), { recursive: true });
    writeFileSync(join(w.repo, CONFIG), "[features]\nhooks = false\n");
    await prompt(w, "A");
    expect(config(w)).toBe("[features]\nhooks = false\n");
    expect(restored(w)).toEqual([]);
  });
});
