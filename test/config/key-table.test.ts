import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BEGIN,
  CONFIG_DOCS,
  configDocsTable,
  END,
  generatedPart,
  withTable,
} from "../../src/config/docs-table.js";
import { forwardedEnv } from "../../src/config/forwarded-env.js";
import { CONFIG_KEYS, SETTING_KEYS } from "../../src/config/keys.js";
import { loadConfig } from "../../src/config/load.js";
import { configTemplate } from "../../src/wiring/project-config.js";
import { tempDir, writeFiles } from "../helpers/repo.js";

const read = (file: string) => readFileSync(join(process.cwd(), file), "utf8");

describe("the docs' table of config keys", () => {
  it.each(CONFIG_DOCS)(
    "%s holds the table generated from src/config/keys.ts (npm run docs:config)",
    (file) => {
      expect(generatedPart(read(file))).toBe(configDocsTable());
    },
  );

  it("has a row for every key, naming its variable", () => {
    const rows = configDocsTable().split("\n").slice(2);
    expect(rows).toHaveLength(CONFIG_KEYS.length);
    CONFIG_KEYS.forEach((def, i) => {
      expect(rows[i]).toMatch(new RegExp(`^\\| \`${def.key.replace("$", "\\$")}\` \\|`));
      if (def.env) expect(rows[i]).toContain(`Env \`${def.env}`);
    });
  });

  it("escapes a bar inside a cell, so a row keeps three columns", () => {
    const roots = configDocsTable()
      .split("\n")
      .find((r) => r.startsWith("| `agents.finalizationRoots`"))!;
    expect(roots).toContain('"git" \\| "output"');
    expect(roots.split(/(?<!\\)\|/)).toHaveLength(5);
  });

  it.each([
    [
      "replaces only what lies between the markers",
      `a\n${BEGIN}\nold\n${END}\nb`,
      `a\n${BEGIN}\nT\n${END}\nb`,
    ],
    ["fills empty markers", `${BEGIN}${END}`, `${BEGIN}\nT\n${END}`],
    ["refuses text without the end marker", `a\n${BEGIN}\nold`, null],
    ["refuses text without the markers", "a table | x |", null],
  ])("%s", (_name, text, want) => {
    expect(withTable(text, "T")).toBe(want);
    if (want !== null) expect(generatedPart(want)).toBe("T");
  });
});

describe("the key table", () => {
  it("declares each key and each variable once", () => {
    const keys = CONFIG_KEYS.map((d) => d.key);
    expect(new Set(keys).size).toBe(keys.length);
    const vars = CONFIG_KEYS.flatMap((d) => (d.env ? [d.env] : []));
    expect(new Set(vars).size).toBe(vars.length);
    const fields = SETTING_KEYS.map((d) => d.field);
    expect(new Set(fields).size).toBe(fields.length);
  });

  it("gives every variable a spelling to read, and the thin client forwards it to the server", () => {
    const forwarded = forwardedEnv();
    for (const def of CONFIG_KEYS.filter((d) => d.env)) {
      expect(def.type.env, def.key).toBeDefined();
      expect(forwarded, `${def.env} is not forwarded (src/config/forwarded-env.ts)`).toContain(def.env);
    }
  });

  it("builds the thin client with exactly the derived list of forwarded variables", () => {
    const built = /^forwarded='([^']*)'$/m.exec(read("dist/tandem"))?.[1]?.split(" ");
    expect(built).toEqual(forwardedEnv());
  });

  it("puts every setting in the template with its default (or example) and its variable", () => {
    for (const def of SETTING_KEYS) {
      const name = def.key.split(".").at(-1)!;
      expect(configTemplate()).toContain(`"${name}": ${JSON.stringify(def.example ?? def.default)}`);
      if (def.env) expect(configTemplate()).toContain(`Env ${def.env}`);
    }
  });

  it("keeps the template's lines within 100 columns", () => {
    for (const line of configTemplate().split("\n")) expect(line.length).toBeLessThanOrEqual(100);
  });
});

describe("the layers, merged key by key from the table", () => {
  it("joins the user's and the project's client launch lines; the project wins for the same client", () => {
    const root = tempDir();
    const xdg = tempDir();
    writeFiles(xdg, {
      "tandem/config.jsonc": JSON.stringify({
        subagents: { clients: { codex: { command: "my-codex" }, cursor: { command: "my-cursor" } } },
        server: { idleMinutes: 5 },
      }),
    });
    writeFiles(root, {
      ".tandem/config.jsonc": JSON.stringify({
        subagents: { clients: { codex: { command: "team-codex", args: ["-q"] }, exec: { command: "wrap" } } },
      }),
    });
    const { config, problems } = loadConfig(root, { XDG_CONFIG_HOME: xdg });
    expect(problems).toEqual([]);
    expect(config.clients).toEqual({
      codex: { command: "team-codex", args: ["-q"] },
      cursor: { command: "my-cursor" },
      exec: { command: "wrap" },
    });
    expect(config.serverIdleMinutes).toBe(5);
  });

  it("drops a project-only key from the user config, keeping the user's other keys of that object", () => {
    const root = tempDir();
    const xdg = tempDir();
    const roots = [{ path: "out", disposition: "output" }];
    writeFiles(xdg, {
      "tandem/config.jsonc": JSON.stringify({ agents: { finalizationRoots: roots, stopRitual: "observe" } }),
    });
    const user = loadConfig(root, { XDG_CONFIG_HOME: xdg });
    expect(user.config).toMatchObject({ finalizationRoots: [], stopRitual: "observe" });
    expect(user.warnings).toEqual([
      expect.stringContaining("agents.finalizationRoots is ignored in the user config"),
    ]);
    writeFiles(root, { ".tandem/config.jsonc": JSON.stringify({ agents: { finalizationRoots: roots } }) });
    expect(loadConfig(root, { XDG_CONFIG_HOME: xdg }).config.finalizationRoots).toEqual(roots);
  });
});
