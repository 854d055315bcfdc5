import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENTS } from "../../src/clients/index.js";
import {
  disableAllHooks,
  hooksConfigDisabled,
  hooksConfigEnabled,
  userSwitchPath,
} from "../../src/clients/switches.js";
import type { SettingsSwitch, UserSwitchFile } from "../../src/clients/types.js";
import { PIN } from "../helpers/cli.js";
import { claudeBash, fakeAgent } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";
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

  it.each<[string, Partial<UserSwitchFile>, Record<string, string>, string]>([
    ["the home's folder", { dirEnv: "QWEN_HOME" }, {}, "/h/.x/settings.json"],
    ["a variable that moves the folder", { dirEnv: "QWEN_HOME" }, { QWEN_HOME: "/q" }, "/q/settings.json"],
    ["an empty one does not", { dirEnv: "QWEN_HOME" }, { QWEN_HOME: "" }, "/h/.x/settings.json"],
    ["a variable that stands for the home", { homeEnv: "G" }, { G: "/g" }, "/g/.x/settings.json"],
    ["another client's variable is not read", { dirEnv: "A" }, { B: "/b" }, "/h/.x/settings.json"],
  ])("the person's file: %s", (_name, entry, env, want) => {
    const f: UserSwitchFile = { dir: ".x", file: "settings.json", switches: [], ...entry };
    expect(userSwitchPath(f, env, "/h")).toBe(want);
  });

  it("each client declares its own: Claude's two files, Qwen's, Gemini's, Copilot's two", () => {
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
    expect(keys("copilot-cli")).toEqual({
      ".github/copilot/settings.json": ["disableAllHooks"],
      ".github/copilot/settings.local.json": ["disableAllHooks"],
    });
    const user = (c: keyof typeof CLIENTS) =>
      (CLIENTS[c].userSwitches ?? []).map((u) => [u.dir, u.dirEnv ?? u.homeEnv]);
    expect(user("copilot-cli")).toEqual([[".copilot", "COPILOT_HOME"]]);
    expect(user("qwen-code")).toEqual([[".qwen", "QWEN_HOME"]]);
    expect(user("gemini-cli")).toEqual([[".gemini", "GEMINI_CLI_HOME"]]);
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

/** `init --check` of a Claude-only wiring. */
const CHECK = ["init", ...PIN, "--check", "--clients", "claude-code"];

describe("Claude's disableAllHooks is wiring", () => {
  it.each([SETTINGS, LOCAL])(
    "in %s: init --check fails naming the file and key, and the next hook heals it",
    async (file) => {
      const repo = initRepo(join(tempDir(), "repo"));
      const init = await cli(["init", ...PIN, "--clients", "claude-code"], { cwd: repo });
      expect(init.code, init.stderr).toBe(0);
      expect((await cli(CHECK, { cwd: repo })).code).toBe(0);
      const a = fakeAgent();
      const start = { session_id: "A", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "go" };
      expect((await hook("claude-code", "user-prompt-submit", start, { cwd: repo, env: a })).code).toBe(0);

      // An agent's command switches every hook off.
      const command = `python3 -c "open('${file}','w').write('{\\"disableAllHooks\\": true}')"`;
      await hook("claude-code", "pre-tool-use", claudeBash(repo, "A", command), { cwd: repo, env: a });
      switchOff(repo, file);
      const check = await cli(CHECK, { cwd: repo });
      expect(check.code).toBe(1);
      expect(check.stdout + check.stderr).toContain(file);
      expect(check.stdout + check.stderr).toMatch(/disableAllHooks/);

      // The next hook of any session takes it out and tells.
      const told = await hook("claude-code", "post-tool-use", claudeBash(repo, "A", command, "PostToolUse"), {
        cwd: repo,
        env: a,
      });
      expect(told.code).toBe(0);
      expect(JSON.parse(readFileSync(join(repo, file), "utf8"))).not.toHaveProperty("disableAllHooks");
      expect((await cli(CHECK, { cwd: repo })).code).toBe(0);
    },
  );
});

describe("Copilot's disableAllHooks in the repository's settings is wiring", () => {
  it.each([".github/copilot/settings.json", ".github/copilot/settings.local.json"])(
    "in %s: init --check fails naming it, the next hook takes the key out and keeps the rest",
    async (file) => {
      const repo = initRepo(join(tempDir(), "repo"));
      const clients = ["--clients", "claude-code,copilot-cli"];
      const init = await cli(["init", ...PIN, ...clients], { cwd: repo });
      expect(init.code, init.stderr).toBe(0);
      const a = fakeAgent();
      const start = { session_id: "A", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "go" };
      expect((await hook("claude-code", "user-prompt-submit", start, { cwd: repo, env: a })).code).toBe(0);

      // An agent's command writes the file, which did not exist at init.
      const text = '{\n  // the person\'s model\n  "model": "gpt-5",\n  "disableAllHooks": true\n}\n';
      mkdirSync(join(repo, ".github", "copilot"), { recursive: true });
      const command = "true";
      await hook("claude-code", "pre-tool-use", claudeBash(repo, "A", command), { cwd: repo, env: a });
      writeFileSync(join(repo, file), text);
      const check = await cli(["init", ...PIN, "--check", ...clients], { cwd: repo });
      expect(check.code).toBe(1);
      expect(check.stdout).toContain(file);
      expect(check.stdout).toMatch(/disableAllHooks/);

      const post = claudeBash(repo, "A", command, "PostToolUse");
      expect((await hook("claude-code", "post-tool-use", post, { cwd: repo, env: a })).code).toBe(0);
      const after = readFileSync(join(repo, file), "utf8");
      expect(after).not.toContain("disableAllHooks");
      expect(after).toContain("// the person's model");
      expect(after).toContain('"model": "gpt-5"');
      expect((await cli(["init", ...PIN, "--check", ...clients], { cwd: repo })).code).toBe(0);
    },
  );

  it("a removed switch file stays removed", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    const file = join(repo, ".github", "copilot", "settings.json");
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, '{ "model": "gpt-5" }\n');
    expect((await cli(["init", ...PIN, "--clients", "claude-code,copilot-cli"], { cwd: repo })).code).toBe(0);
    const a = fakeAgent();
    const start = { session_id: "A", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "go" };
    execFileSync("rm", ["--", file]);
    expect((await hook("claude-code", "user-prompt-submit", start, { cwd: repo, env: a })).code).toBe(0);
    expect(existsSync(file)).toBe(false);
  });
});

/** The clients' own variables, unset unless a case sets them: the runner's must not leak in. */
const NO_MOVES = {
  CLAUDE_CONFIG_DIR: undefined,
  QWEN_HOME: undefined,
  GEMINI_CLI_HOME: undefined,
  COPILOT_HOME: undefined,
  CODEX_HOME: undefined,
};

describe("the person's own files that switch hooks off", () => {
  it("doctor and init --check find them where each client's variables put them", async () => {
    const repo = initRepo(join(tempDir(), "repo"));
    expect((await cli(["init", ...PIN, "--clients", "claude-code"], { cwd: repo })).code).toBe(0);
    const base = tempDir("tandem-moved-");
    const env = {
      ...NO_MOVES,
      HOME: join(base, "home"),
      CLAUDE_CONFIG_DIR: join(base, "claude"),
      QWEN_HOME: join(base, "qwen"),
      GEMINI_CLI_HOME: join(base, "gemini"),
      COPILOT_HOME: join(base, "copilot"),
      CODEX_HOME: join(base, "codex"),
    };
    const files: [string, string, string][] = [
      ["claude/settings.json", '{ "disableAllHooks": true }\n', "disableAllHooks"],
      ["qwen/settings.json", '{ "disableAllHooks": true }\n', "disableAllHooks"],
      ["gemini/.gemini/settings.json", '{ "hooksConfig": { "enabled": false } }\n', "hooksConfig.enabled"],
      ["copilot/settings.json", '{ "disableAllHooks": true }\n', "disableAllHooks"],
      ["codex/config.toml", "[features]\nhooks = false\n", "features.hooks"],
    ];
    for (const [rel, text] of files) {
      mkdirSync(join(base, rel, ".."), { recursive: true });
      writeFileSync(join(base, rel), text);
    }
    const r = await cli(["doctor", "--json"], { cwd: repo, env });
    const d = JSON.parse(r.stdout) as { findings: Finding[]; checks: Finding[] };
    const found = [...d.findings, ...d.checks].filter((f) => f.check === "hook switches");
    expect(found).toHaveLength(files.length);
    const check = await cli(["init", ...PIN, "--check", "--clients", "claude-code"], { cwd: repo, env });
    expect(check.code).toBe(1);
    for (const [rel, text, key] of files) {
      expect(found.find((f) => f.detail.startsWith(join(base, rel)))?.detail).toContain(key);
      expect(check.stdout).toContain(`${join(base, rel)}: ${key}`);
      expect(readFileSync(join(base, rel), "utf8")).toBe(text);
    }
    const clean = await cli(["init", ...PIN, "--check", "--clients", "claude-code"], {
      cwd: repo,
      env: { ...NO_MOVES, HOME: join(base, "home") },
    });
    expect(clean.code, clean.stdout).toBe(0);
  });

  it("doctor reports ~/.claude, ~/.qwen, ~/.gemini and ~/.codex/config.toml with the fix, and changes none", async () => {
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
    const r = await cli(["doctor", "--json"], { cwd: repo, env: { ...NO_MOVES, HOME: home } });
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
