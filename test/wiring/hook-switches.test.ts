import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENTS } from "../../src/clients/index.js";
import { disableAllHooks, hooksConfigDisabled, hooksConfigEnabled } from "../../src/clients/switches.js";
import type { SettingsSwitch } from "../../src/clients/types.js";
import { PIN, tandem } from "../helpers/cli.js";
import { claudeBash, fakeAgent, hook } from "../helpers/hooks.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/** Issue 37.5: every documented way to switch a client's hooks off is wiring: reported and healed. */

describe("each client's hook switches, as a table (issue 37.5)", () => {
  it.each<[string, SettingsSwitch, Record<string, unknown>, (string | number)[][]]>([
    ["disableAllHooks: true", disableAllHooks, { disableAllHooks: true, hooks: {} }, [["disableAllHooks"]]],
    ["disableAllHooks: false leaves them on", disableAllHooks, { disableAllHooks: false }, []],
    [
      "hooksConfig.enabled: false",
      hooksConfigEnabled,
      { hooksConfig: { enabled: false } },
      [["hooksConfig", "enabled"]],
    ],
    ["hooksConfig.enabled: true leaves them on", hooksConfigEnabled, { hooksConfig: { enabled: true } }, []],
    [
      "hooksConfig.disabled naming tandem, twice, from the end",
      hooksConfigDisabled("tandem"),
      { hooksConfig: { disabled: ["tandem", "other", "tandem"] } },
      [
        ["hooksConfig", "disabled", 2],
        ["hooksConfig", "disabled", 0],
      ],
    ],
    [
      "hooksConfig.disabled naming another hook",
      hooksConfigDisabled("tandem"),
      { hooksConfig: { disabled: ["x"] } },
      [],
    ],
  ])("%s", (_name, sw, doc, paths) => {
    expect(sw.switchedOff(doc).map((f) => f.path)).toEqual(paths);
  });

  it("each client declares its own: Claude's two files, Qwen's, Gemini's", () => {
    const keys = (c: keyof typeof CLIENTS) =>
      Object.fromEntries(
        Object.entries(CLIENTS[c].settingsSwitches ?? {}).map(([f, sws]) => [f, sws.map((s) => s.key)]),
      );
    expect(keys("claude-code")).toEqual({
      ".claude/settings.json": ["disableAllHooks"],
      ".claude/settings.local.json": ["disableAllHooks"],
    });
    expect(keys("qwen-code")).toEqual({ ".qwen/settings.json": ["disableAllHooks"] });
    expect(keys("gemini-cli")).toEqual({
      ".gemini/settings.json": ["hooksConfig.enabled", "hooksConfig.disabled"],
    });
  });
});

const SETTINGS = ".claude/settings.json";
const LOCAL = ".claude/settings.local.json";

function switchOff(repo: string, file: string): void {
  const path = join(repo, file);
  let doc: Record<string, unknown> = {};
  try {
    doc = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch {
    // absent: a new file
  }
  writeFileSync(path, `${JSON.stringify({ ...doc, disableAllHooks: true }, null, 2)}\n`);
}

describe("Claude's disableAllHooks is wiring", () => {
  it.each([SETTINGS, LOCAL])(
    "in %s: init --check fails naming the file and key, and the next hook heals it",
    (file) => {
      const repo = initRepo(join(tempDir(), "repo"));
      const init = tandem(["init", ...PIN, "--clients", "claude-code"], { cwd: repo });
      expect(init.code, init.stderr).toBe(0);
      expect(tandem(["init", ...PIN, "--check", "--clients", "claude-code"], { cwd: repo }).code).toBe(0);
      const a = fakeAgent();
      const start = { session_id: "A", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "go" };
      expect(hook("claude-code", "user-prompt-submit", start, { cwd: repo, env: a }).code).toBe(0);

      // An agent's command switches every hook off.
      const command = `python3 -c "open('${file}','w').write('{\\"disableAllHooks\\": true}')"`;
      hook("claude-code", "pre-tool-use", claudeBash(repo, "A", command), { cwd: repo, env: a });
      switchOff(repo, file);
      const check = tandem(["init", ...PIN, "--check", "--clients", "claude-code"], { cwd: repo });
      expect(check.code).toBe(1);
      expect(check.stdout + check.stderr).toContain(file);
      expect(check.stdout + check.stderr).toMatch(/disableAllHooks/);

      // The next hook of any session takes it out and tells.
      const told = hook("claude-code", "post-tool-use", claudeBash(repo, "A", command, "PostToolUse"), {
        cwd: repo,
        env: a,
      });
      expect(told.code).toBe(0);
      expect(JSON.parse(readFileSync(join(repo, file), "utf8"))).not.toHaveProperty("disableAllHooks");
      expect(tandem(["init", ...PIN, "--check", "--clients", "claude-code"], { cwd: repo }).code).toBe(0);
    },
  );
});

describe("the person's own files that switch hooks off", () => {
  it("doctor reports ~/.claude, ~/.qwen, ~/.gemini and ~/.codex/config.toml with the fix, and changes none", () => {
    const repo = initRepo(join(tempDir(), "repo"));
    const home = tempDir("tandem-home-");
    const files: Record<string, string> = {
      ".claude/settings.json": '{ "disableAllHooks": true }\n',
      ".qwen/settings.json": '{ "disableAllHooks": true }\n',
      ".gemini/settings.json": '{ "hooksConfig": { "disabled": ["tandem"] } }\n',
      ".codex/config.toml": "[features]\nhooks = false\n",
    };
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(join(home, rel, ".."), { recursive: true });
      writeFileSync(join(home, rel), text);
    }
    const r = tandem(["doctor", "--json"], { cwd: repo, env: { HOME: home } });
    const d = JSON.parse(r.stdout) as { findings: Finding[]; checks: Finding[] };
    const found = [...d.findings, ...d.checks].filter((f) => f.check === "hook switches");
    expect(found.map((f) => f.level)).toEqual(["problem", "problem", "problem", "problem"]);
    for (const [rel, key] of [
      [".claude/settings.json", "disableAllHooks"],
      [".qwen/settings.json", "disableAllHooks"],
      [".gemini/settings.json", "hooksConfig.disabled"],
      [".codex/config.toml", "features.hooks"],
    ]) {
      const f = found.find((x) => x.detail.startsWith(join(home, rel!)));
      expect(f?.detail).toContain(key!);
      expect(f?.fix).toContain(`remove ${key} from ${join(home, rel!)}`);
      expect(readFileSync(join(home, rel!), "utf8")).toBe(files[rel!]);
    }
  });
});

type Finding = { level: string; check: string; detail: string; fix?: string };
