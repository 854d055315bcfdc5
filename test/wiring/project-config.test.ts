import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, readConfigFile } from "../../src/config/load.js";
import { configFileSchema, DEFAULT_CONFIG } from "../../src/config/schema.js";
import { configTemplate } from "../../src/wiring/project-config.js";
import { tempDir } from "../helpers/repo.js";

/** Leaf keys of the schema (records and arrays are leaves: their inner keys are user data). */
function schemaKeys(schema: unknown, prefix = ""): string[] {
  const def = (schema as { def: { type: string; shape?: Record<string, unknown>; innerType?: unknown } }).def;
  if (def.type === "optional") return schemaKeys(def.innerType, prefix);
  if (def.type !== "object" || !def.shape) return [prefix];
  return Object.entries(def.shape).flatMap(([k, v]) => schemaKeys(v, prefix ? `${prefix}.${k}` : k));
}

function writeConfig(text: string): string {
  const file = join(tempDir(), "config.jsonc");
  writeFileSync(file, text);
  return file;
}

describe("the project config template", () => {
  it("parses to an empty config: every key is commented out", () => {
    expect(readConfigFile(writeConfig(configTemplate()))).toEqual({});
  });

  it("mentions every key of the schema", () => {
    const keys = schemaKeys(configFileSchema()).filter((k) => k !== "$schema");
    expect(keys.length).toBeGreaterThan(8);
    const text = configTemplate({ command: "tandem", clients: ["codex"], gitHooks: true });
    for (const key of keys) expect(text).toContain(`"${key.split(".").at(-1)}":`);
  });

  it("shows the defaults: uncommenting every key line gives the default config", () => {
    const lines = configTemplate().split("\n");
    const open = lines.indexOf("{");
    // Inside the braces, key lines lose their `// `; meaning lines were `//   // …` and stay comments.
    const uncomment = (line: string, i: number) => (i > open ? line.replace(/^(\s*)\/\/ /, "$1") : line);
    const uncommented = lines.map(uncomment).join("\n");
    const root = tempDir();
    mkdirSync(join(root, ".tandem"));
    writeFileSync(join(root, ".tandem", "config.jsonc"), uncommented);
    const { config, files } = loadConfig(root, { XDG_CONFIG_HOME: "/nonexistent" });
    expect(files).toHaveLength(1);
    // worktreeRoot's default (inside the git dir) has no config value; the template shows an example.
    expect({ ...config, worktreeRoot: null }).toEqual(DEFAULT_CONFIG);
  });
});
