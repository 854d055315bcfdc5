import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { codexHooksOn } from "../../src/clients/codex/hooks-switch.js";
import { scanToml } from "../../src/clients/codex/toml-scan.js";
import { ensureClients } from "../e2e/harness/install-clients.js";
import { g, tempDir } from "../helpers/repo.js";

/**
 * Issue 25 §6: `.codex/config.toml` can switch every Codex hook off. What Tandem takes out of it,
 * and — asked of the real Codex 0.171.0 (`codex features list` in a trusted project) — that this is
 * exactly what switched the hooks off, and that everything else the person set is still read.
 */

/** [name, file as found, file after switching the hooks back on (null: left alone)] */
const OFF: [string, string, string][] = [
  ["a [features] table", "[features]\nhooks = false\n", "[features]\n"],
  [
    "beside the person's settings, with a comment",
    'model = "o3"\n\n[features]\ngoals = false\nhooks = false # quiet\nfast_mode = false\n',
    'model = "o3"\n\n[features]\ngoals = false\nfast_mode = false\n',
  ],
  ["the older key codex_hooks", "[features]\ncodex_hooks = false\n", "[features]\n"],
  ["both keys", "[features]\nhooks = false\ncodex_hooks = false\n", "[features]\n"],
  ["a dotted key", 'features.hooks = false\nmodel = "o3"\n', 'model = "o3"\n'],
  ["spaced dots", "features . hooks = false\n", ""],
  ["an inline table, alone", "features = { hooks = false }\n", "features = {  }\n"],
  [
    "an inline table, last",
    "features = { goals = false, hooks = false }\n",
    "features = { goals = false }\n",
  ],
  [
    "an inline table, first",
    "features = { hooks = false, goals = false }\n",
    "features = { goals = false }\n",
  ],
  ["quoted keys", "[ \"features\" ]\n'hooks' = false\n", '[ "features" ]\n'],
  ["an escaped key", '[features]\n"\\u0068ooks" = false\n', "[features]\n"],
  ["CRLF lines", "[features]\r\nhooks = false\r\ngoals = false\r\n", "[features]\r\ngoals = false\r\n"],
  [
    "after a multi-line string that looks like the setting",
    'developer_instructions = """\n[features]\nhooks = false\n"""\n[features]\nhooks = false\n',
    'developer_instructions = """\n[features]\nhooks = false\n"""\n[features]\n',
  ],
];

/** Files that leave the hooks on: Tandem changes nothing. */
const ON: [string, string][] = [
  ["hooks switched on", "[features]\nhooks = true\n"],
  ["the key in another table", "[tui]\nhooks = false\n"],
  ["a profile's features", "[profiles.x.features]\nhooks = false\n"],
  ["the setting inside a string", 'developer_instructions = "[features] hooks = false"\n'],
  ["the setting inside a literal string", "developer_instructions = '''\nhooks = false\n'''\n"],
  ["the setting commented out", "# [features]\n# hooks = false\n"],
  ["no file content", ""],
];

/** Files Codex itself refuses to start with, naming the file: nothing to heal. */
const REFUSED: [string, string][] = [
  ["an unclosed header", "[features\nhooks = false\n"],
  ["a value that is not a boolean", '[features]\nhooks = "no"\n'],
];

describe("switching Codex's hooks back on in .codex/config.toml", () => {
  it.each(OFF)("takes out the setting in %s, and nothing else", (_n, found, healed) => {
    const on = codexHooksOn(found);
    expect(on?.text).toBe(healed);
    expect(on?.changes.every((c) => /switches every Codex hook off; removed it$/.test(c))).toBe(true);
  });

  it("names each setting it took out, by line", () => {
    expect(codexHooksOn("[features]\nhooks = false\ncodex_hooks = false\n")?.changes).toEqual([
      "`hooks = false` on line 2 set features.hooks = false, which switches every Codex hook off; removed it",
      "`codex_hooks = false` on line 3 set features.codex_hooks = false, which switches every Codex hook off; removed it",
    ]);
  });

  it.each([...ON, ...REFUSED])("leaves %s alone", (_n, text) => {
    expect(codexHooksOn(text)).toBeNull();
  });
});

describe("the TOML reader under it", () => {
  it.each([
    ["strings of every kind", `a = "x # \\" y"\nb = 'c:\\\\p # q'\nc = """\nx "" \\" y"""\nd = '''it's'''\n`],
    ["multi-line strings ending in quotes", "a = \"\"\"x\"\"\"\"\"\nb = '''y'''''\n"],
    ["arrays over lines with comments", "a = [\n  1, # one\n  [2, 3],\n  { x = 1 },\n]\n"],
    ["nested inline tables", "a = { b = { c = [1, 2] }, d = 'e' }\n"],
    [
      "numbers and dates",
      "a = +1_000\nb = -inf\nc = 0xDEAD_BEEF\nd = 6.626e-34\ne = 1979-05-27 07:32:00Z\nf = 07:32:00\n",
    ],
    ["arrays of tables", "[[bin]]\nname = 'a'\n[[bin]]\nname = 'b'\n[features]\n"],
    ["a byte order mark and no final newline", "\uFEFF[features]\ngoals = true"],
  ])("reads %s", (_n, text) => {
    expect(scanToml(text)).not.toBeNull();
  });

  it("gives each key its full path, and nothing under an array of tables", () => {
    const pairs = scanToml("x = 1\n[a.b]\n'c'.d = true\ne = { f = false }\n[[g]]\nh = false\n")!;
    expect(pairs.map((p) => [p.path.join("."), p.bool])).toEqual([
      ["x", null],
      ["a.b.c.d", true],
      ["a.b.e.f", false],
      ["a.b.e", null],
    ]);
  });

  it.each([
    ["a key without a value", "a =\n"],
    ["two pairs on one line", "a = 1 b = 2\n"],
    ["an unclosed string", 'a = "x\n'],
    ["an unclosed array", "a = [1,\n"],
    ["a bad escape", 'a = "\\q"\n'],
  ])("refuses %s", (_n, text) => {
    expect(scanToml(text)).toBeNull();
  });
});

describe("what the real Codex 0.171.0 reads", () => {
  let codex = "";
  beforeAll(async () => {
    codex = (await ensureClients()).codex;
  }, 600_000);

  /** `codex features list` in a trusted project holding `text`: the `hooks` feature, or null when Codex refused. */
  function hooksFeature(text: string): { hooks: boolean; goals: boolean } | null {
    const home = tempDir("tandem-codex-home-");
    const project = join(tempDir(), "p");
    mkdirSync(join(project, ".codex"), { recursive: true });
    g(project, "init", "-q");
    writeFileSync(
      join(home, "config.toml"),
      `[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n`,
    );
    writeFileSync(join(project, ".codex", "config.toml"), text);
    const r = spawnSync(codex, ["features", "list"], {
      cwd: project,
      env: { PATH: process.env.PATH, HOME: home, CODEX_HOME: home },
      encoding: "utf8",
      timeout: 120_000,
    });
    if (r.status !== 0) return null;
    const flag = (name: string) => new RegExp(`^${name}\\s+\\S.*\\s(true|false)$`, "m").exec(r.stdout)?.[1];
    expect(flag("hooks"), r.stdout + r.stderr).toBeDefined();
    return { hooks: flag("hooks") === "true", goals: flag("goals") === "true" };
  }

  it.each(OFF)("switches the hooks off with %s, and on again once it is taken out", (_n, found, healed) => {
    const before = hooksFeature(found);
    expect(before?.hooks).toBe(false);
    const after = hooksFeature(healed);
    // The person's own `goals = false` is still read.
    expect(after).toEqual({ hooks: true, goals: before!.goals });
  });

  it.each(ON)("keeps the hooks on with %s", (_n, text) => {
    expect(hooksFeature(text)?.hooks).toBe(true);
  });

  it.each(REFUSED)("refuses to start with %s", (_n, text) => {
    expect(hooksFeature(text)).toBeNull();
  });
});
