import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, userConfigPath } from "../../src/config/load.js";
import { DEFAULT_CONFIG } from "../../src/config/schema.js";
import { tempDir, writeFiles } from "../helpers/repo.js";

function setup(project?: string, user?: string) {
  const root = tempDir();
  const xdg = tempDir();
  if (project !== undefined) writeFiles(root, { ".tandem/config.jsonc": project });
  if (user !== undefined) writeFiles(xdg, { "tandem/config.jsonc": user });
  return { root, env: { XDG_CONFIG_HOME: xdg } as Record<string, string> };
}

describe("loadConfig", () => {
  it("gives the defaults when no file exists", () => {
    const { root, env } = setup();
    expect(loadConfig(root, env)).toMatchObject({ config: DEFAULT_CONFIG, warnings: [], files: [] });
  });

  it("reads JSON with comments and trailing commas", () => {
    const { root, env } = setup(`{
      // shared by every agent
      "agents": { "stopRitual": "observe", "finalizationRoots": [{ "path": "../docs", "disposition": "output" },], },
    }`);
    const { config } = loadConfig(root, env);
    expect(config.stopRitual).toBe("observe");
    expect(config.finalizationRoots).toEqual([{ path: "../docs", disposition: "output" }]);
  });

  it("reports a syntax error with file, line and column", () => {
    const { root, env } = setup(
      '{\n  "agents": {\n    "stopRitual": "observe"\n    "failClosed": true\n  }\n}',
    );
    expect(() => loadConfig(root, env)).toThrow(/config .*\.tandem\/config\.jsonc:4:5: CommaExpected/);
  });

  it("reports a value of the wrong type naming the key and its line", () => {
    const { root, env } = setup('{\n  "agents": {\n    "freshnessSeconds": "ten"\n  }\n}');
    expect(() => loadConfig(root, env)).toThrow(/config\.jsonc:3:5: key "agents\.freshnessSeconds"/);
  });

  it("reports an unknown key naming it and its line", () => {
    const { root, env } = setup('{\n  "agents": {\n    "stopRitaul": "off"\n  }\n}');
    expect(() => loadConfig(root, env)).toThrow(/config\.jsonc:3:5: unknown key "agents\.stopRitaul"/);
  });

  it("rejects a bad enum value in the user config naming that file", () => {
    const { root, env } = setup(undefined, '{ "agents": { "stopRitual": "sometimes" } }');
    expect(() => loadConfig(root, env)).toThrow(/tandem\/config\.jsonc:1:15: key "agents\.stopRitual"/);
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

  it("refuses an environment override it does not understand", () => {
    const { root, env } = setup();
    expect(() => loadConfig(root, { ...env, TANDEM_REQUIRE_GIT_FINALIZATION: "yes" })).toThrow(
      /TANDEM_REQUIRE_GIT_FINALIZATION=yes .* use 1 or 0/,
    );
    expect(() => loadConfig(root, { ...env, TANDEM_FRESHNESS: "-3" })).toThrow(/TANDEM_FRESHNESS/);
  });

  it("honours XDG_CONFIG_HOME and falls back to ~/.config", () => {
    expect(userConfigPath({ XDG_CONFIG_HOME: "/x" })).toBe(join("/x", "tandem", "config.jsonc"));
    expect(userConfigPath({ HOME: "/home/u" })).toBe("/home/u/.config/tandem/config.jsonc");
  });
});
