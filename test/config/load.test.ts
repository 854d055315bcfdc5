import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, readConfigFile, userConfigPath } from "../../src/config/load.js";
import { ALLOWED, DEFAULT_CONFIG } from "../../src/config/schema.js";
import { readConfigText } from "../../src/config/validate.js";
import { tempDir, writeFiles } from "../helpers/repo.js";

function setup(project?: string, user?: string) {
  const root = tempDir();
  const xdg = tempDir();
  if (project !== undefined) writeFiles(root, { ".tandem/config.jsonc": project });
  if (user !== undefined) writeFiles(xdg, { "tandem/config.jsonc": user });
  return { root, env: { XDG_CONFIG_HOME: xdg } as Record<string, string> };
}

interface Case {
  name: string;
  text: string;
  /** What is kept: every readable, valid key. */
  data: unknown;
  /** kind, key, line:col of the key (or of the broken spot), and the suggestion when there is one. */
  problems: [kind: string, key: string, at: string, didYouMean?: string][];
}

const CASES: Case[] = [
  { name: "an empty file", text: "", data: {}, problems: [] },
  { name: "only comments", text: "// nothing set yet\n/* really */\n", data: {}, problems: [] },
  {
    name: "comments and trailing commas beside valid keys",
    text: '{\n  // shared\n  "agents": { "stopRitual": "observe", /* why */ "failClosed": true, },\n}',
    data: { agents: { stopRitual: "observe", failClosed: true } },
    problems: [],
  },
  {
    name: "an unknown key at the top level, a near miss of a nested key",
    text: '{\n  "freshnessSecs": 5\n}',
    data: {},
    problems: [["unknown-key", "freshnessSecs", "2:3", "agents.freshnessSeconds"]],
  },
  {
    name: "an unknown nested key beside a valid one, which is kept",
    text: '{\n  "agents": {\n    "freshnessSecs": 5,\n    "failClosed": true\n  }\n}',
    data: { agents: { failClosed: true } },
    problems: [["unknown-key", "agents.freshnessSecs", "3:5", "agents.freshnessSeconds"]],
  },
  {
    name: "a known key at the wrong level",
    text: '{ "failClosed": true, "agents": { "stopRitual": "off" } }',
    data: { agents: { stopRitual: "off" } },
    problems: [["unknown-key", "failClosed", "1:3", "agents.failClosed"]],
  },
  {
    name: "a transposed key",
    text: '{ "agents": { "stopRitaul": "off" } }',
    data: { agents: {} },
    problems: [["unknown-key", "agents.stopRitaul", "1:15", "agents.stopRitual"]],
  },
  {
    name: "an unknown key like nothing known",
    text: '{ "agents": { "colour": "blue" } }',
    data: { agents: {} },
    problems: [["unknown-key", "agents.colour", "1:15"]],
  },
  {
    name: "an unknown client name",
    text: '{ "subagents": { "clients": { "claude": { "command": "claude" } } } }',
    data: { subagents: { clients: {} } },
    problems: [["unknown-key", "subagents.clients.claude", "1:31", "subagents.clients.claude-code"]],
  },
  {
    name: "a value of the wrong type",
    text: '{\n  "agents": {\n    "freshnessSeconds": "ten",\n    "stopRitual": "observe"\n  }\n}',
    data: { agents: { stopRitual: "observe" } },
    problems: [["bad-value", "agents.freshnessSeconds", "3:5"]],
  },
  {
    name: "a number out of range",
    text: '{ "subagents": { "capture": { "maxPatchBytes": 0, "maxDirtyBytes": 1024 } } }',
    data: { subagents: { capture: { maxDirtyBytes: 1024 } } },
    problems: [["bad-value", "subagents.capture.maxPatchBytes", "1:31"]],
  },
  {
    name: "a fraction where a whole number belongs",
    text: '{ "agents": { "freshnessSeconds": 1.5 } }',
    data: { agents: {} },
    problems: [["bad-value", "agents.freshnessSeconds", "1:15"]],
  },
  {
    name: "a bad enum value, with the nearest allowed value",
    text: '{ "agents": { "stopRitual": "enforced" } }',
    data: { agents: {} },
    problems: [["bad-value", "agents.stopRitual", "1:15", "enforce"]],
  },
  {
    name: "a bad item in a list, placed at the item's own key",
    text: '{ "agents": {\n  "finalizationRoots": [\n    { "path": "out", "disposition": "both" }\n  ]\n} }',
    data: { agents: {} },
    problems: [["bad-value", "agents.finalizationRoots[0].disposition", "3:22"]],
  },
  {
    name: "a client without its required command",
    text: '{ "subagents": { "clients": { "codex": { "args": ["-m", "x"] } } } }',
    data: { subagents: { clients: {} } },
    problems: [["bad-value", "subagents.clients.codex.command", "1:31"]],
  },
  {
    name: "a bad required key is told once, not again as missing",
    text: '{ "subagents": { "clients": { "exec": { "command": "" } } } }',
    data: { subagents: { clients: {} } },
    problems: [["bad-value", "subagents.clients.exec.command", "1:41"]],
  },
  {
    name: "an object where a value belongs, and a value where an object belongs",
    text: '{ "agents": 5, "subagents": { "worktreeRoot": { "path": "x" } } }',
    data: { subagents: {} },
    problems: [
      ["bad-value", "agents", "1:3"],
      ["bad-value", "subagents.worktreeRoot", "1:31"],
    ],
  },
  {
    name: "a list instead of an object",
    text: '[{ "agents": {} }]',
    data: {},
    problems: [["bad-value", "", "1:1"]],
  },
  {
    name: "trailing garbage after a sound object",
    text: '{ "agents": { "failClosed": true } }\nxyz',
    data: { agents: { failClosed: true } },
    problems: [["syntax", "", "2:1"]],
  },
  {
    name: "an unclosed brace: what was read before it is kept",
    text: '{\n  "agents": {\n    "failClosed": true,\n    "stopRitual": "observe"\n',
    data: { agents: { failClosed: true, stopRitual: "observe" } },
    problems: [["syntax", "", "5:1"]],
  },
  {
    name: "a missing comma between two sound keys",
    text: '{\n  "agents": {\n    "stopRitual": "observe"\n    "failClosed": true\n  }\n}',
    data: { agents: { stopRitual: "observe", failClosed: true } },
    problems: [["syntax", "", "4:5"]],
  },
  {
    name: "a value broken in the middle is dropped, its neighbour kept",
    text: '{ "agents": { "freshnessSeconds": 6 00, "failClosed": true } }',
    data: { agents: { failClosed: true } },
    problems: [["syntax", "agents.freshnessSeconds", "1:15"]],
  },
  {
    name: "a key without a value",
    text: '{ "agents": { "freshnessSeconds": , "failClosed": true } }',
    data: { agents: { failClosed: true } },
    problems: [["syntax", "agents.freshnessSeconds", "1:15"]],
  },
  {
    name: "an unclosed comment",
    text: '{ "agents": { "failClosed": true } } /* note',
    data: { agents: { failClosed: true } },
    problems: [["syntax", "", "1:38"]],
  },
  { name: "no JSON at all", text: "agents: off", data: {}, problems: [["syntax", "", "1:1"]] },
];

describe("reading a config file", () => {
  it.each(CASES)("$name", ({ text, data, problems }) => {
    const read = readConfigText(text, "/r/.tandem/config.jsonc");
    expect(read.data).toEqual(data);
    expect(
      read.problems.map((p) => [
        p.kind,
        p.key,
        `${p.line}:${p.column}`,
        ...(p.didYouMean ? [p.didYouMean] : []),
      ]),
    ).toEqual(problems);
    for (const p of read.problems) expect(p.source).toBe("/r/.tandem/config.jsonc");
  });

  it("names the keys allowed beside an unknown key, and what a bad value must be", () => {
    const [unknown, bad] = readConfigText(
      '{ "agents": { "colour": 1, "stopRitual": "sometimes" } }',
      "/r/c.jsonc",
    ).problems;
    expect(unknown!.allowed).toBe(
      '"stopRitual", "requireGitFinalization", "finalizationRoots", "freshnessSeconds", "lineClaimMargin", "failClosed", "storeLockSeconds" and "remoteClaims"',
    );
    expect(bad).toMatchObject({ problem: 'is "sometimes"', allowed: 'one of "enforce", "observe" or "off"' });
  });
});

describe("the allowed values", () => {
  /** `{ "a": { "b": value } }` for the key `a.b`. */
  const nest = (key: string, value: string) =>
    key.split(".").reduceRight((inner, k) => `{ "${k}": ${inner} }`, value);

  it.each([
    ["$schema", nest("$schema", "1")],
    ["agents.stopRitual", nest("agents.stopRitual", "1")],
    ["agents.requireGitFinalization", nest("agents.requireGitFinalization", "1")],
    ["agents.finalizationRoots", nest("agents.finalizationRoots", "1")],
    ["agents.freshnessSeconds", nest("agents.freshnessSeconds", '"1"')],
    ["agents.failClosed", nest("agents.failClosed", "1")],
    ["subagents.worktreeRoot", nest("subagents.worktreeRoot", "1")],
    ["subagents.clients.exec.command", nest("subagents.clients.exec.command", "1")],
    ["subagents.clients.exec.args", nest("subagents.clients.exec", '{ "command": "x", "args": 1 }')],
    ["subagents.capture.maxPatchBytes", nest("subagents.capture.maxPatchBytes", '"1"')],
    ["subagents.capture.maxDirtyBytes", nest("subagents.capture.maxDirtyBytes", '"1"')],
    ["land.check", nest("land.check", '""')],
    ["land.checkTimeoutSeconds", nest("land.checkTimeoutSeconds", "0")],
  ])("are described for %s", (key, text) => {
    const [problem] = readConfigText(text, "/c.jsonc").problems;
    expect(problem).toMatchObject({ kind: "bad-value", key });
    expect(Object.values(ALLOWED)).toContain(problem!.allowed);
  });
});

describe("loadConfig", () => {
  it("gives the defaults when no file exists", () => {
    const { root, env } = setup();
    expect(loadConfig(root, env)).toEqual({ config: DEFAULT_CONFIG, warnings: [], problems: [], files: [] });
  });

  it("never throws for a broken file: the defaults stand in for what it cannot read", () => {
    const { root, env } = setup('{\n  "freshnessSecs": 5,\n  "agents": { "stopRitual": "observe" ');
    const loaded = loadConfig(root, env);
    expect(loaded.config).toEqual({ ...DEFAULT_CONFIG, stopRitual: "observe" });
    expect(loaded.problems.map((p) => p.kind)).toEqual(["unknown-key", "syntax"]);
    expect(loaded.problems[0]).toMatchObject({
      source: join(root, ".tandem/config.jsonc"),
      using: "600",
      didYouMean: "agents.freshnessSeconds",
    });
  });

  it("says what is used instead of a bad value: the user's setting under a bad project value", () => {
    const { root, env } = setup(
      '{ "agents": { "freshnessSeconds": -1 } }',
      '{ "agents": { "freshnessSeconds": 30 } }',
    );
    const loaded = loadConfig(root, env);
    expect(loaded.config.freshnessSeconds).toBe(30);
    expect(loaded.problems).toEqual([
      expect.objectContaining({ key: "agents.freshnessSeconds", using: "30" }),
    ]);
  });

  it("names the setting a bad list item takes down with it", () => {
    const { root, env } = setup(
      '{ "agents": { "finalizationRoots": [{ "path": "" , "disposition": "git" }] } }',
    );
    expect(loadConfig(root, env).problems[0]).toMatchObject({
      key: "agents.finalizationRoots[0].path",
      using: "[] for agents.finalizationRoots",
    });
  });

  it("reports a config that cannot be read at all, and goes on", () => {
    const { root, env } = setup();
    mkdirSync(join(root, ".tandem", "config.jsonc"), { recursive: true });
    const loaded = loadConfig(root, env);
    expect(loaded.config).toEqual(DEFAULT_CONFIG);
    expect(loaded.problems).toEqual([
      expect.objectContaining({ kind: "unreadable", problem: "EISDIR", line: null }),
    ]);
  });

  it("reports problems of the user config under its own file", () => {
    const { root, env } = setup(undefined, '{ "agents": { "stopRitual": "sometimes", "failClosed": true } }');
    const loaded = loadConfig(root, env);
    expect(loaded.config).toMatchObject({ stopRitual: "enforce", failClosed: true });
    expect(loaded.problems).toEqual([
      expect.objectContaining({ source: userConfigPath(env), key: "agents.stopRitual", line: 1, column: 15 }),
    ]);
  });

  it("ignores finalizationRoots in the user config with a warning", () => {
    const { root, env } = setup(
      undefined,
      '{ "agents": { "failClosed": true, "finalizationRoots": [{ "path": "/", "disposition": "output" }] } }',
    );
    const { config, warnings } = loadConfig(root, env);
    expect(config.finalizationRoots).toEqual([]);
    expect(config.failClosed).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/finalizationRoots is ignored in the user config/);
  });

  it("lets the project config win over the user config, and the environment over both", () => {
    const { root, env } = setup(
      '{ "agents": { "freshnessSeconds": 60 } }',
      '{ "agents": { "freshnessSeconds": 30, "stopRitual": "off" } }',
    );
    expect(loadConfig(root, env).config).toMatchObject({ freshnessSeconds: 60, stopRitual: "off" });
    const withEnv = loadConfig(root, { ...env, TANDEM_FRESHNESS: "5", TANDEM_REQUIRE_GIT_FINALIZATION: "1" });
    expect(withEnv.config).toMatchObject({ freshnessSeconds: 5, requireGitFinalization: true });
  });

  it("reads land.check and its timeout from the project, and lets TANDEM_LAND_CHECK* override them", () => {
    const { root, env } = setup('{ "land": { "check": "npm test", "checkTimeoutSeconds": 90 } }');
    expect(loadConfig(root, env).config).toMatchObject({
      landCheck: "npm test",
      landCheckTimeoutSeconds: 90,
    });
    const withEnv = loadConfig(root, {
      ...env,
      TANDEM_LAND_CHECK: "make check",
      TANDEM_LAND_CHECK_TIMEOUT: "5",
    });
    expect(withEnv.config).toMatchObject({ landCheck: "make check", landCheckTimeoutSeconds: 5 });
    expect(loadConfig(setup().root, env).config).toMatchObject({
      landCheck: null,
      landCheckTimeoutSeconds: 600,
    });
  });

  it.each([
    [
      "TANDEM_LAND_CHECK_TIMEOUT",
      "soon",
      "landCheckTimeoutSeconds",
      600,
      "a whole number of seconds above 0",
    ],
    ["TANDEM_REQUIRE_GIT_FINALIZATION", "yes", "requireGitFinalization", false, "1 or 0"],
    ["TANDEM_FAIL_CLOSED", "on", "failClosed", false, "1 or 0"],
    ["TANDEM_FRESHNESS", "-3", "freshnessSeconds", 60, "a whole number of seconds above 0"],
    ["TANDEM_FRESHNESS", "1e", "freshnessSeconds", 60, "a whole number of seconds above 0"],
    ["TANDEM_STOP_RITUAL", "never", "stopRitual", "enforce", 'one of "enforce", "observe" or "off"'],
  ])(
    "ignores %s=%s it does not understand, keeping the config's value",
    (name, value, field, kept, allowed) => {
      const { root, env } = setup('{ "agents": { "freshnessSeconds": 60 } }');
      const loaded = loadConfig(root, { ...env, [name]: value });
      expect(loaded.config[field as keyof typeof loaded.config]).toEqual(kept);
      expect(loaded.problems).toEqual([
        {
          source: "environment",
          kind: "bad-value",
          key: name,
          line: null,
          column: null,
          problem: `is "${value}"`,
          allowed,
          didYouMean: null,
          using: JSON.stringify(kept),
        },
      ]);
    },
  );

  it("keeps a strict reader that refuses any problem, for checks that must not guess", () => {
    const { root } = setup('{ "agents": { "stopRitaul": "off" } }');
    expect(() => readConfigFile(join(root, ".tandem/config.jsonc"))).toThrow(
      /config\.jsonc:1:15: unknown key "agents\.stopRitaul" \(did you mean "agents\.stopRitual"\?\)/,
    );
    expect(readConfigFile(join(root, "absent.jsonc"))).toBeNull();
  });

  it("honours XDG_CONFIG_HOME and falls back to ~/.config", () => {
    expect(userConfigPath({ XDG_CONFIG_HOME: "/x" })).toBe(join("/x", "tandem", "config.jsonc"));
    expect(userConfigPath({ HOME: "/home/u" })).toBe("/home/u/.config/tandem/config.jsonc");
  });
});
