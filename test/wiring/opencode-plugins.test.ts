import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  configPlugins,
  isForeignPlugin,
  parentDirs,
  userConfigDirs,
} from "../../src/clients/opencode/plugin-dirs.js";
import { PIN, tandem } from "../helpers/cli.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/** Issue 37.5: a plugin beside Tandem's runs in the same opencode hooks; doctor and init --check name it. */

describe("opencode's plugins beside Tandem's, as tables", () => {
  it.each<[string, string | null, string, boolean]>([
    ["Tandem's own file", "/r", "/r/.opencode/plugins/tandem.js", false],
    ["another module there", "/r", "/r/.opencode/plugins/other.js", true],
    ["a TypeScript one in plugin/", "/r", "/r/.opencode/plugin/x.ts", true],
    ["a file opencode does not load", "/r", "/r/.opencode/plugins/README.md", false],
    ["tandem.js in the person's folder", null, "/h/.config/opencode/plugins/tandem.js", true],
  ])("%s", (_n, root, path, foreign) => {
    expect(isForeignPlugin(root, path)).toBe(foreign);
  });

  it.each<[string, unknown, string[]]>([
    ["a list of names", { plugin: ["a", "b@1"] }, ["a", "b@1"]],
    ["none", { model: "x" }, []],
    ["not a list", { plugin: "a" }, []],
    ["not an object", [1], []],
  ])("plugin entries: %s", (_n, doc, want) => {
    expect(configPlugins(doc)).toEqual(want);
  });

  it.each<[string, string, string | null, string[]]>([
    ["the project is the top", "/t", "/t", []],
    ["two levels below the top", "/t/a/b", "/t", ["/t/a", "/t"]],
    ["outside a work tree", "/t/a", null, []],
    ["a top that does not hold it", "/x/a", "/t", []],
  ])("parents read: %s", (_n, root, top, want) => {
    expect(parentDirs(root, top)).toEqual(want);
  });

  it("the person's folders follow XDG_CONFIG_HOME and OPENCODE_CONFIG_DIR", () => {
    expect(userConfigDirs({}, "/h")).toEqual(["/h/.config/opencode"]);
    expect(userConfigDirs({ XDG_CONFIG_HOME: "/x", OPENCODE_CONFIG_DIR: "/o" }, "/h")).toEqual([
      "/x/opencode",
      "/o",
    ]);
  });
});

type Finding = { level: string; check: string; detail: string; fix?: string };

describe("opencode's plugins beside Tandem's, in a wired repository", () => {
  it("init --check and doctor name the project's and the person's, and change none", () => {
    const base = tempDir("tandem-oc-");
    const top = initRepo(join(base, "top"));
    // The Tandem project is a folder of the repository: opencode reads the top's config as well.
    const repo = join(top, "app");
    mkdirSync(join(repo, ".tandem"), { recursive: true });
    writeFileSync(join(repo, ".tandem", "config.jsonc"), "{}\n");
    const env = {
      HOME: join(base, "home"),
      XDG_CONFIG_HOME: join(base, "xdg"),
      OPENCODE_CONFIG_DIR: join(base, "ocdir"),
    };
    const init = tandem(["init", ...PIN, "--clients", "opencode"], { cwd: repo, env });
    expect(init.code, init.stderr).toBe(0);
    const check = () => tandem(["init", ...PIN, "--check", "--clients", "opencode"], { cwd: repo, env });
    const clean = check();
    expect(clean.code, clean.stdout).toBe(0);

    const files: [string, string, string][] = [
      [
        join(repo, ".opencode", "plugins", "other.js"),
        "export const X = async () => ({});\n",
        "a plugin module",
      ],
      [join(repo, "opencode.json"), '{ "plugin": ["opencode-foo"] }\n', "plugin: opencode-foo"],
      [join(base, "xdg", "opencode", "opencode.jsonc"), '{ // mine\n "plugin": ["bar"] }\n', "plugin: bar"],
      [join(base, "ocdir", "plugins", "y.ts"), "export const Y = async () => ({});\n", "a plugin module"],
      [join(top, "opencode.json"), '{ "plugin": ["up"] }\n', "plugin: up"],
      [join(top, ".opencode", "plugin", "z.js"), "export const Z = async () => ({});\n", "a plugin module"],
    ];
    for (const [file, text] of files) {
      mkdirSync(join(file, ".."), { recursive: true });
      writeFileSync(file, text);
    }
    const r = check();
    expect(r.code).toBe(1);
    const d = JSON.parse(tandem(["doctor", "--json"], { cwd: repo, env }).stdout) as {
      findings: Finding[];
      checks: Finding[];
    };
    const found = [...d.findings, ...d.checks].filter((f) => f.check === "opencode plugins");
    expect(found).toHaveLength(files.length);
    for (const [file, text, what] of files) {
      expect(r.stdout).toContain(`${file}: ${what}`);
      expect(found.find((f) => f.detail.startsWith(`${file}: ${what}`))?.level).toBe("problem");
      expect(readFileSync(file, "utf8")).toBe(text);
    }
  });
});
